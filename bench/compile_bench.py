"""What parsing and compiling a short script costs when every script is different
(issue 29, item 3: "a request of its own is cheap", at most 50 µs).

    python bench/compile_bench.py [--n 2000] [--repeats 7]

For each representative script, every timed script is new text (a counter in it),
so the engine's exact-text cache never answers. Three paths, labelled:

- ``old path``: what every such script cost before the plan cache (the engine's
  ``_compile_new``: lark's parse, the checks, the planner), the ``old`` of the ratios;
- ``new shape``: the counter sits where it changes the shape (a ``limit``), so no
  plan can be shared: lark parses, the checks and the planner run (the cold path);
- ``lifted``: the counter sits in a ``where`` literal, so the plan cache
  (qlgate/engine/plan_cache.py) rebuilds the AST from the shape's and moves its plan.

Each prints the parse alone (``qlgate.lang.parser.parse``) and ``Engine.compile``
(parse and compile), in µs per script, the best of ``--repeats`` rounds of ``--n``
scripts, with two baselines timed in the same run: lark building its parse tree for
the script (``PARSER.parse``, the tree the old path built before the AST), and
``json.loads`` of a JSON document as long as the script.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qlgate.engine.engine import Engine  # noqa: E402  (the checkout's package, not an installed one)
from qlgate.lang.lift import lift  # noqa: E402
from qlgate.lang.parser import parse  # noqa: E402
from qlgate.lang.parser.grammar import PARSER  # noqa: E402
from qlgate.lang.reuse import ShapeTemplate  # noqa: E402
from qlgate.trust import Trust  # noqa: E402

# {n} is the counter; the cold variant puts it in a limit, the lifted one in a literal
SCRIPTS = {
    "subquery": (
        'select id, title from details where id in (select id from finditems where q = "x1") and ms = "-1" limit {n}',
        'select id, title from details where id in (select id from finditems where q = "x{n}") and ms = "-1"',
    ),
    "one call": (
        "return select title from ebay.finding.findItemsByKeywords where keywords = 'camera' limit {n};",
        "return select title from ebay.finding.findItemsByKeywords where keywords = 'camera {n}' limit 5;",
    ),
    "two statements": (
        'a = select * from search where q = "shoes" limit {n};\nreturn select d.title from details as d where d.id in (a.id, 7)',
        'a = select * from search where q = "shoes {n}" limit 5;\nreturn select d.title from details as d where d.id in (a.id, {n})',
    ),
}


def best(step: Callable[[], object], n: int, repeats: int) -> float:
    """µs per call: the best of ``repeats`` rounds of ``n`` calls (the host's noise only adds)."""
    rounds = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(n):
            step()
        rounds.append((time.perf_counter() - start) / n * 1e6)
    return min(rounds)


def distinct(template: str) -> Callable[[], str]:
    counter = itertools.count(1_000_000)
    return lambda: template.format(n=next(counter))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=2000, help="scripts per round")
    parser.add_argument("--repeats", type=int, default=7, help="rounds; the best is printed")
    args = parser.parse_args()
    n, repeats = args.n, args.repeats
    print(f"$ python bench/compile_bench.py --n {n} --repeats {repeats}")
    print(f"{'script':<16}{'path':<11}{'parse µs':>10}{'compile µs':>12}{'lark tree µs':>14}{'json µs':>9}  ratio")
    for label, (cold, lifted) in SCRIPTS.items():
        sample = lifted.format(n=1)
        document = json.dumps({"s": "x" * max(0, len(sample) - 8)})
        tree = best(lambda sample=sample: PARSER.parse(sample), max(1, n // 10), repeats)
        loads = best(lambda document=document: json.loads(document), n, repeats)
        engine = Engine(config={})
        old_us = 0.0
        for path, template in (("old path", lifted), ("new shape", cold), ("lifted", lifted)):
            for warm in (1, 2):  # a shape is learned when its second script comes: not timed
                engine.compile(template.format(n=warm))
            rounds = n if path == "lifted" else max(1, n // 10)
            make = distinct(template)
            if path != "lifted":
                parse_us = best(lambda make=make: parse(make()), rounds, repeats)
            else:  # the lifted path's parse: lift, and rebuild from the shape's AST
                first = template.format(n=1)
                shape = ShapeTemplate.learn(lift(first), first, parse(first), parse)  # type: ignore[arg-type]

                def rebuild(make: Callable[[], str] = make, shape: ShapeTemplate = shape) -> object:
                    script = make()
                    return shape.build(lift(script), script)  # type: ignore[arg-type]

                parse_us = best(rebuild, rounds, repeats)
            make = distinct(template)
            if path == "old path":  # what every distinct script cost before the plan cache

                def step(make: Callable[[], str] = make, engine: Engine = engine) -> object:
                    return engine._compile_new(make(), Trust.deployer(), None, None)

            else:

                def step(make: Callable[[], str] = make, engine: Engine = engine) -> object:
                    return engine.compile(make())

            compile_us = best(step, rounds, repeats)
            old_us = old_us or compile_us
            ratio = f"{compile_us / tree:.2f}x lark tree, {compile_us / loads:.1f}x json.loads, {compile_us / old_us:.2f}x old"
            print(f"{label:<16}{path:<11}{parse_us:>10.1f}{compile_us:>12.1f}{tree:>14.1f}{loads:>9.1f}  {ratio}")


if __name__ == "__main__":
    main()
