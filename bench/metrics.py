"""What ``GET /metrics`` costs the gateway (issue 33: under 3 %): ``select *`` of one
table whose every request is unique (nothing from a cache, nothing shared), through
``qlgate serve --workers 1`` with the metrics on and with ``--no-metrics``, in
alternating rounds; CPU µs per answered request of each serving process, and the
cost of the counting alone (``Metrics.request`` over a one-call run), timed in-process.

    python bench/metrics.py [--rounds 5] [--seconds 3] [--concurrency 20]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.unique import MARK, Load, Numbers

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = ROOT / "bench" / "upstream.py"
PATH = f"/q?s=return%20select%20*%20from%20d.item%20where%20id%20%3D%20%22x{MARK}%22%3B"


def serve(where: Path, port: int, metrics: bool) -> subprocess.Popen:
    command = [sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "1", "--no-access-log"]
    command += [] if metrics else ["--no-metrics"]
    process = subprocess.Popen(command, cwd=where, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
            return process
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the gateway did not start")


def counting_alone(repeat: int = 200_000) -> float:
    """µs of ``Metrics.request`` for a request whose run made one call upstream."""
    from qlgate.diagnostics import CallRecord, Diagnostics
    from qlgate.server.metrics import Metrics

    metrics = Metrics()
    diagnostics = Diagnostics()
    diagnostics.calls.append(CallRecord("d.item", "GET", "http://x", 0.0, 0.004, 200, 300))
    began = time.process_time()
    for _ in range(repeat):
        metrics.request("/q", "", "GET", 200, 0.004, 0, 600, diagnostics)
    return (time.process_time() - began) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--concurrency", type=int, default=20)
    args = parser.parse_args()
    upstream = subprocess.Popen([sys.executable, str(UPSTREAM)], stdout=subprocess.PIPE, text=True)
    assert upstream.stdout is not None
    up_port = int(upstream.stdout.readline())
    where = Path(tempfile.mkdtemp(prefix="qlgate-metrics-bench-"))
    (where / "tables").mkdir()
    (where / "tables" / "d.ql").write_text(
        f"create table d.item on select get from 'http://127.0.0.1:{up_port}/details?ms=-1&id={{id}}'\n"
    )
    from qlgate.ports import free_port

    ports = {True: free_port(), False: free_port()}
    gateways = {on: serve(where, ports[on], on) for on in (True, False)}
    load = Load(where, Numbers(), args.concurrency, f"http://127.0.0.1:{up_port}", [g.pid for g in gateways.values()])
    cpu: dict[bool, list[float]] = {True: [], False: []}
    try:
        for _ in range(args.rounds):
            for on in (True, False):
                r = load.run(f"http://127.0.0.1:{ports[on]}", PATH, gateways[on].pid, args.seconds)
                assert r["errors"] == 0 and r["calls"] is not None and r["calls"] > 0.99, r
                cpu[on].append(r["cpu_us"])
    finally:
        for process in (*gateways.values(), upstream):
            os.kill(process.pid, signal.SIGTERM)
            process.wait(30)
    on, off = statistics.median(cpu[True]), statistics.median(cpu[False])
    alone = counting_alone()
    print(f"select * (unique), {args.rounds} rounds of {args.seconds:g} s, -c {args.concurrency}")
    print(f"  metrics on : {on:7.1f} µs CPU per request  ({', '.join(f'{v:.0f}' for v in cpu[True])})")
    print(f"  metrics off: {off:7.1f} µs CPU per request  ({', '.join(f'{v:.0f}' for v in cpu[False])})")
    print(f"  difference : {(on - off) / off * 100:+.1f} % (rounds' medians; the machine's noise included)")
    print(f"  counting alone: {alone:.2f} µs per request = {alone / off * 100:.2f} % of a request's CPU")


if __name__ == "__main__":
    main()
