"""What OpenTelemetry traces cost the gateway (issue 33: under 3 %): ``select *`` of one
table whose every request is unique, through ``qlgate serve --workers 1`` with
``traces.otlpEndpoint`` set (every request sampled, exported to a collector stand-in
in this process that answers 200) and without it, in alternating rounds; CPU µs per
answered request of each serving process (its exporter thread included). Then the
parts alone, timed in-process: encoding and queueing a one-call request's spans
(``Tracing.finish``) and a call's span id and ``traceparent`` (the one thing done on
the call's path).

    python bench/traces.py [--rounds 5] [--seconds 3] [--concurrency 20] [--ratio 1]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.unique import MARK, Load, Numbers

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = ROOT / "bench" / "upstream.py"
PATH = f"/q?s=return%20select%20*%20from%20d.item%20where%20id%20%3D%20%22x{MARK}%22%3B"


class Collector(BaseHTTPRequestHandler):
    """An OTLP/HTTP endpoint that reads each export and answers 200 (spans counted)."""

    spans_bytes = 0

    def do_POST(self) -> None:
        Collector.spans_bytes += len(self.rfile.read(int(self.headers["Content-Length"])))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def serve(where: Path, port: int, traced: bool) -> subprocess.Popen:
    command = [sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "1", "--no-access-log"]
    command += ["--config", "traced.json" if traced else "plain.json"]
    process = subprocess.Popen(command, cwd=where, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
            return process
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the gateway did not start")


def parts_alone(repeat: int = 50_000) -> tuple[float, float]:
    """µs of ``Tracing.finish`` for a request whose run made one call (its three spans
    encoded and queued, not posted), and of a call's span id and ``traceparent``."""
    from qlgate.diagnostics import CallRecord, Diagnostics
    from qlgate.server.otlp import Exporter
    from qlgate.server.request import MultiMap, Request
    from qlgate.server.tracing import Tracing
    from qlgate.trace_context import TraceContext, new_span_id

    exporter = Exporter(
        "http://127.0.0.1:1/v1/traces", service="bench", version="0", interval=3600, batch=repeat + 1, limit=repeat
    )
    tracing = Tracing(exporter)
    request = Request(None, "GET", "/q?s=x", MultiMap([], fold=True), "127.0.0.1")  # type: ignore[arg-type]
    request.endpoint, request.id = "/q", "r1"
    diagnostics = Diagnostics()
    diagnostics.calls.append(CallRecord("d.item", "GET", "http://x", 0.0, 0.004, 200, 300, line=1))
    request.calls = diagnostics
    began = time.process_time()
    for _ in range(repeat):
        request.trace = TraceContext.begin(None, 1.0)
        tracing.finish(request, 200, time.perf_counter() - 0.005)
    finish = (time.process_time() - began) / repeat * 1e6
    exporter._pending.clear()
    trace = TraceContext.begin(None, 1.0)
    began = time.process_time()
    for _ in range(repeat):
        trace.header(new_span_id())
    header = (time.process_time() - began) / repeat * 1e6
    return finish, header


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--ratio", type=float, default=1.0, help="traces.sampleRatio (1: every request exported)")
    args = parser.parse_args()
    collector = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=collector.serve_forever, daemon=True).start()
    upstream = subprocess.Popen([sys.executable, str(UPSTREAM)], stdout=subprocess.PIPE, text=True)
    assert upstream.stdout is not None
    up_port = int(upstream.stdout.readline())
    where = Path(tempfile.mkdtemp(prefix="qlgate-traces-bench-"))
    (where / "tables").mkdir()
    (where / "tables" / "d.ql").write_text(
        f"create table d.item on select get from 'http://127.0.0.1:{up_port}/details?ms=-1&id={{id}}'\n"
    )
    endpoint = f"http://127.0.0.1:{collector.server_address[1]}/v1/traces"
    (where / "traced.json").write_text(json.dumps({"traces": {"otlpEndpoint": endpoint, "sampleRatio": args.ratio}}))
    (where / "plain.json").write_text("{}")
    from qlgate.ports import free_port

    ports = {True: free_port(), False: free_port()}
    gateways = {on: serve(where, ports[on], on) for on in (True, False)}
    load = Load(where, Numbers(), args.concurrency, f"http://127.0.0.1:{up_port}", [g.pid for g in gateways.values()])
    cpu: dict[bool, list[float]] = {True: [], False: []}
    try:
        for round_ in range(args.rounds):
            for on in (True, False) if round_ % 2 == 0 else (False, True):  # neither always first
                r = load.run(f"http://127.0.0.1:{ports[on]}", PATH, gateways[on].pid, args.seconds)
                assert r["errors"] == 0 and r["calls"] is not None and r["calls"] > 0.99, r
                cpu[on].append(r["cpu_us"])
    finally:
        for process in (*gateways.values(), upstream):
            os.kill(process.pid, signal.SIGTERM)
            process.wait(30)
        collector.shutdown()
    on, off = statistics.median(cpu[True]), statistics.median(cpu[False])
    finish, header = parts_alone()
    print(f"select * (unique), {args.rounds} rounds of {args.seconds:g} s, -c {args.concurrency}, ratio {args.ratio:g}")
    print(f"  traces on : {on:7.1f} µs CPU per request  ({', '.join(f'{v:.0f}' for v in cpu[True])})")
    print(f"  traces off: {off:7.1f} µs CPU per request  ({', '.join(f'{v:.0f}' for v in cpu[False])})")
    print(f"  difference: {(on - off) / off * 100:+.1f} % (rounds' medians; the machine's noise included)")
    print(f"  exported  : {Collector.spans_bytes:,} bytes of OTLP protobuf received")
    print(f"  encoding and queueing a one-call request's spans alone: {finish:.1f} µs = {finish / off * 100:.1f} %")
    print(f"  a call's span id and traceparent alone: {header:.2f} µs = {header / off * 100:.2f} %")


if __name__ == "__main__":
    main()
