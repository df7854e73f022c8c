"""The engine's own work per upstream call, counted in instructions (issue 29): a number
the machine's load cannot move, where CPU time on this shared 2-core host varies 2× from
one run to the next. Counted by valgrind's callgrind (Debian's ``valgrind``), against
another commit of this repository checked out beside it in the same go:

    python bench/call_instructions.py [--against REV] [--rounds 50]

What is counted: ``select id from t where id in (…)`` over 100 values every round, each
value new (nothing shared, nothing cached), the engine's HTTP client answering each
request at once with a 20-row JSON answer, so what is left is the engine alone: building
each request, its call path, decoding and projecting its answer, merging the fan-out.
Each tree runs twice, with 0 and with ``--rounds`` measured rounds after the same 20
warm-up rounds; the difference divided by the calls is the cost of one call, start-up and
imports taken out.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALLS_PER_ROUND = 100

HARNESS = textwrap.dedent(
    """
    import asyncio, json, sys
    from pathlib import Path
    tree, rounds, tables = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    sys.path.insert(0, str(tree))
    from qlgate.engine.engine import Engine
    from qlgate.http.client import HttpClient, HttpResponse
    BODY = json.dumps({"items": [{"id": str(i), "title": f"item {i}", "price": i * 1.5} for i in range(20)]}).encode()
    async def at_once(self, request):
        return HttpResponse(200, {"content-type": "application/json"}, BODY, request.url, wire_bytes=len(BODY))
    HttpClient.send = at_once
    async def main():
        async with Engine(tables=tables, config={}) as engine:
            for r in range(20 + rounds):
                ids = [f"{r}-{i}" for i in range(100)]
                await engine.execute('return select id from t where id in ("{ids}")', context={"ids": ids})
    asyncio.run(main())
    """
)


def instructions(tree: Path, rounds: int, work: Path) -> int:
    """Instructions callgrind counted for the harness on ``tree`` with ``rounds``."""
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            str(work / "h.py"),
            str(tree),
            str(rounds),
            str(work / "tables"),
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        check=True,
    ).stderr
    found = re.search(r"Collected : (\d+)", out)
    if found is None:
        raise SystemExit(f"callgrind said nothing countable:\n{out[-2000:]}")
    return int(found.group(1))


def per_call(tree: Path, rounds: int, work: Path) -> float:
    return (instructions(tree, rounds, work) - instructions(tree, 0, work)) / (rounds * CALLS_PER_ROUND)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--against", default="edc69e4", help="the commit to compare with (default: before the one call path)"
    )
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    print(f"command: python bench/call_instructions.py --against {args.against} --rounds {args.rounds}")
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        (work / "h.py").write_text(HARNESS)
        (work / "tables").mkdir()
        (work / "tables" / "t.ql").write_text(
            "create table t on select get from \"http://127.0.0.1:9/items?id={id}\" resultset 'items'\n"
        )
        other = work / "other"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(other), args.against], check=True
        )
        try:
            before = per_call(other, args.rounds, work)
            now = per_call(ROOT, args.rounds, work)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)
    print(
        f"instructions per upstream call, the engine alone: {args.against} {before:,.0f}; this tree {now:,.0f} "
        f"(×{now / before:.2f})"
    )


if __name__ == "__main__":
    main()
