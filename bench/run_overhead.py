"""What ``qlgate run`` adds to a script's upstream time when the script does more than
one call (issue 29, item 3: 8 independent statements at most 10 ms, a 30-value
fan-out at most 25 ms over a one-call script, in a fresh process each).

    python bench/run_overhead.py [--runs 5] [--ms 100] [--before REV]

Starts ``bench/upstream.py`` on 127.0.0.1 (every answer delayed ``--ms``), writes a
deployment with one table calling it into a temporary directory, and runs three
scripts there with ``python -m qlgate run -e …``, each in a fresh process, ``--runs``
times interleaved after one warm-up each (Python's bytecode caches, the table
index). Prints each script's median wall time (the whole process) and median script
time (what ``--diagnostics`` reports: from the run's start to its value, where the
host's noise in start-up does not reach), each with its difference to the one-call
script's: the calls are concurrent, so ideally every script takes the same time.
With ``--before REV`` the package as at that git revision (``git archive``) is timed
too, interleaved with this checkout's.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = ROOT / "bench" / "upstream.py"
_SCRIPT_MS = re.compile(r"; script ([\d.]+) ms")


def scripts() -> dict[str, str]:
    eight = "".join(f'a{i} = select * from d.item where id = "{i}";\n' for i in range(8))
    returned = ", ".join(f'"a{i}": "{{a{i}}}"' for i in range(8))
    values = ", ".join(f'"{i}"' for i in range(30))
    return {
        "one call": 'return select * from d.item where id = "1";',
        "8 statements": eight + "return {" + returned + "};",
        "30-value fan-out": f"return select * from d.item where id in ({values});",
    }


def start_upstream() -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen([sys.executable, str(UPSTREAM)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    return process, int(process.stdout.readline())


def deployment(port: int, ms: int) -> Path:
    where = Path(tempfile.mkdtemp(prefix="qlgate-overhead-"))
    (where / "tables").mkdir()
    (where / "tables" / "d.ql").write_text(
        f"create table d.item on select get from 'http://127.0.0.1:{port}/details?ms={ms}&id={{id}}'\n",
        encoding="utf-8",
    )
    return where


def package_of(rev: str) -> Path:
    """A directory holding the package as at ``rev``, for PYTHONPATH."""
    where = Path(tempfile.mkdtemp(prefix="qlgate-before-"))
    archive = subprocess.run(["git", "archive", rev, "qlgate"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def once(script: str, cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall ms, script ms) of one fresh ``qlgate run``."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "qlgate", "run", "--diagnostics", "-e", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    took = time.perf_counter() - start
    found = _SCRIPT_MS.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"qlgate run failed: {done.stderr.strip()}")
    return took * 1000, float(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ms", type=int, default=100, help="the upstream's delay per answer")
    parser.add_argument("--before", metavar="REV", help="also time the package as at this git revision")
    args = parser.parse_args()
    before = f" --before {args.before}" if args.before else ""
    print(f"$ python bench/run_overhead.py --runs {args.runs} --ms {args.ms}{before}")
    packages = {"now": ROOT}
    if args.before:
        packages[f"before ({args.before})"] = package_of(args.before)
    upstream, port = start_upstream()
    try:
        cwd = deployment(port, args.ms)
        every = scripts()
        times: dict[tuple[str, str], list[tuple[float, float]]] = {(p, s): [] for p in packages for s in every}
        envs = {name: {**os.environ, "PYTHONPATH": str(path)} for name, path in packages.items()}
        for env in envs.values():
            for script in every.values():
                once(script, cwd, env)  # warm-up: bytecode caches, the table index
        for _ in range(args.runs):
            for name, env in envs.items():
                for label, script in every.items():
                    times[name, label].append(once(script, cwd, env))
        print(f"(in {cwd}: tables/d.ql calls 127.0.0.1:{port}, {args.ms} ms per answer; median of {args.runs})")
        print(f"{'':<34}{'wall ms':>9}{'over one call':>15}{'script ms':>11}{'over one call':>15}")
        for name in packages:
            wall = {label: statistics.median(t[0] for t in times[name, label]) for label in every}
            own = {label: statistics.median(t[1] for t in times[name, label]) for label in every}
            for label in every:
                print(
                    f"{name:<16}{label:<18}{wall[label]:9.1f}{wall[label] - wall['one call']:+15.1f}"
                    f"{own[label]:11.1f}{own[label] - own['one call']:+15.1f}"
                )
    finally:
        upstream.terminate()
        upstream.wait()


if __name__ == "__main__":
    main()
