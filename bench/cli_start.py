"""How long ``qlgate run`` takes from the repository root (issue 18, item 6: under
250 ms for ``return 1;``), for a script that calls nothing and for one that calls
one table of the built-in eBay emulator.

    python bench/cli_start.py [--runs 11] [--before REV]

Each variant runs ``--runs`` times, interleaved so the host's noise falls on all
alike, after one warm-up run each (which writes the table index and Python's and
Jinja's caches); the median wall time is printed with its ratio to the others:

- ``now``: the command as it is;
- ``no index``: ``QLGATE_TABLE_INDEX=off``, every table compiled at start (what
  ``qlgate run`` did before the table index, lazy imports and the lazy emulator
  kept);
- ``before`` (with ``--before REV``, e.g. the commit before the fast CLI): the
  package as it was at REV (``git archive``), run from a directory that links to
  this checkout's tables, routes and config, so it sees the same deployment.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = {
    "nothing called": "return 1;",
    "one emulator call": (
        "return select searchResult.item[0].title from ebay.finding.findItemsByKeywords where keywords = 'camera' limit 1;"
    ),
}


def checkout_of(rev: str) -> Path:
    """A directory that looks like the repository root with the package as at ``rev``."""
    where = Path(tempfile.mkdtemp(prefix="qlgate-before-"))
    archive = subprocess.run(["git", "archive", rev, "qlgate"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    for entry in ROOT.iterdir():
        if entry.name not in ("qlgate", ".git") and not (where / entry.name).exists():
            (where / entry.name).symlink_to(entry)
    return where


def once(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed in {cwd}: {done.stderr.strip()}")
    return took, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--before", metavar="REV", help="also time the package as at this git revision")
    args = parser.parse_args()

    env = dict(os.environ)
    variants: dict[str, tuple[Path, dict[str, str]]] = {
        "now": (ROOT, env),
        "no index": (ROOT, {**env, "QLGATE_TABLE_INDEX": "off"}),
    }
    before = checkout_of(args.before) if args.before else None
    if before is not None:
        variants[f"before ({args.before})"] = (before, env)
    try:
        for label, script in SCRIPTS.items():
            command = [sys.executable, "-m", "qlgate", "run", "-e", script]
            print(f"$ {sys.executable} -m qlgate run -e {script!r}    ({label}; from {ROOT}, {args.runs} runs)")
            outputs = {name: once(command, cwd, variant_env)[1] for name, (cwd, variant_env) in variants.items()}
            if len(set(outputs.values())) != 1:
                raise SystemExit(f"the variants disagree: {outputs}")
            times: dict[str, list[float]] = {name: [] for name in variants}
            for _ in range(args.runs):
                for name, (cwd, variant_env) in variants.items():
                    times[name].append(once(command, cwd, variant_env)[0])
            medians = {name: statistics.median(values) for name, values in times.items()}
            for name, median in medians.items():
                ratios = ", ".join(
                    f"{medians[other] / median:.2f}× faster than {other}" for other in medians if other != name
                )
                if name != "now":
                    ratios = ""
                print(f"  {name:<24} median {median * 1000:7.1f} ms   {ratios}".rstrip())
            print(f"  output: {outputs['now'][:100]}")
    finally:
        if before is not None:
            shutil.rmtree(before, ignore_errors=True)


if __name__ == "__main__":
    main()
