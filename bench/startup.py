"""How long the gateway and the CLI take to start, against issue 31's targets on a
2-core machine, each figure printed with the command that gives it:

- ``qlgate run -e 'return 1;'`` ≤ 250 ms, beside ``python -c pass`` and
  ``python -c 'import asyncio'`` measured in the same runs (what no Python command
  can beat here, now);
- the first eBay call of a ``qlgate run`` (a Finding search on the built-in emulator)
  ≤ 400 ms end to end, served by the emulator server, beside the same run with
  ``QLGATE_EMULATOR_SERVER=off`` (the emulator built in the run, as before it);
- ``qlgate serve`` with a warm table index: answering ``/health`` and its banner
  out ≤ 2 s from the command; with a cold index (an empty ``XDG_CACHE_HOME``), when
  the first progress line came and when it answered.

    python bench/startup.py [--runs 7]

Each variant runs ``--runs`` times, interleaved, after one warm-up each (which writes
the table index, the emulator server and Python's byte code); the median is printed
with the range. The machine's steal share is printed beside them. The emulator server
runs in a temporary ``XDG_RUNTIME_DIR`` and is stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from steal import StealMeter  # bench/ is not a package: its directory is on the path above

ROOT = Path(__file__).resolve().parents[1]
EBAY = (
    "return select searchResult.item[0].title from ebay.finding.findItemsByKeywords where keywords = 'camera' limit 1;"
)
PY = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def once(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.strip()}")
    return took


def serve_once(env: dict[str, str]) -> dict[str, float]:
    """Seconds from the command to: the first progress line, /health answering, the banner."""
    port = free_port()
    marks: dict[str, float] = {}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [PY, "-m", "qlgate", "serve", "--port", str(port), "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            now = time.perf_counter() - start
            if "indexing tables" in line or "loading tables" in line:
                marks.setdefault("progress", now)
            if line.startswith("qlgate ") and " serving " in line:
                marks.setdefault("banner", now)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        deadline = time.perf_counter() + 120
        while "health" not in marks:
            if proc.poll() is not None or time.perf_counter() > deadline:
                raise SystemExit(f"qlgate serve did not answer (exit {proc.poll()})")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                    marks["health"] = time.perf_counter() - start
            except OSError:
                time.sleep(0.01)
        while "banner" not in marks and time.perf_counter() < deadline:
            time.sleep(0.01)
    finally:
        proc.terminate()
        proc.wait(30)
        reader.join(5)
    return marks


def summary(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.0f} ms  ({min(values) * 1000:.0f}–{max(values) * 1000:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_") and k != "PYTHONDONTWRITEBYTECODE"}
    runtime = tempfile.mkdtemp(prefix="qlgate-rt-")
    env.update(XDG_RUNTIME_DIR=runtime, QLGATE_EMULATOR_SERVER="on")
    try:
        measure(args, env)
    finally:
        stop_servers(runtime)
        shutil.rmtree(runtime, ignore_errors=True)


def stop_servers(runtime: str) -> None:
    """The emulator servers started under ``runtime`` (procfs)."""
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"qlgate_ebay_emulator.server" in command and runtime.encode() in command:
            os.kill(int(entry.name), signal.SIGTERM)


def measure(args: argparse.Namespace, env: dict[str, str]) -> None:
    commands = {
        f"{PY} -c pass": [PY, "-c", "pass"],
        f"{PY} -c 'import asyncio'": [PY, "-c", "import asyncio"],
        "qlgate run -e 'return 1;'  (target ≤ 250 ms)": [PY, "-m", "qlgate", "run", "-e", "return 1;"],
        f'qlgate run -e "{EBAY}"  (first eBay call, target ≤ 400 ms)': [PY, "-m", "qlgate", "run", "-e", EBAY],
        f'QLGATE_EMULATOR_SERVER=off qlgate run -e "{EBAY}"  (built in the run)': [
            "env",
            "QLGATE_EMULATOR_SERVER=off",
            PY,
            "-m",
            "qlgate",
            "run",
            "-e",
            EBAY,
        ],
    }
    print(f"from {ROOT}, {args.runs} runs each, interleaved, after one warm-up; {os.cpu_count()} cores")
    for command in commands.values():
        once(command, env)
    time.sleep(3)  # the emulator server the warm-up started builds its marketplace
    serve_once(env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    serves: list[dict[str, float]] = []
    with StealMeter() as steal:
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(once(command, env))
            serves.append(serve_once(env))
    for name, values in times.items():
        print(f"  {summary(values)}   $ {name}")
    for mark in ("health", "banner"):
        values = [s[mark] for s in serves if mark in s]
        print(f"  {summary(values)}   $ qlgate serve --port P --workers 1  (warm index: {mark}, target ≤ 2000 ms)")
    cold: list[dict[str, float]] = []
    for _ in range(max(1, args.runs // 3)):
        cache = tempfile.mkdtemp(prefix="qlgate-bench-cache-")
        try:
            cold.append(serve_once({**env, "XDG_CACHE_HOME": cache}))
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    for mark in ("progress", "health", "banner"):
        values = [s[mark] for s in cold if mark in s]
        if values:
            print(f"  {summary(values)}   $ XDG_CACHE_HOME=$(mktemp -d) qlgate serve --port P  (cold index: {mark})")
        else:
            print(
                f"  (none)                               $ XDG_CACHE_HOME=$(mktemp -d) qlgate serve  (cold: no {mark} line)"
            )
    print(f"  {steal}")


if __name__ == "__main__":
    main()
