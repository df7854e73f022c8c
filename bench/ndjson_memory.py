"""What a large result costs the gateway as one JSON document and as NDJSON (issue 31,
"Large results"): a route over an upstream that answers ROWS rows (~40 MB), asked once
per fresh ``qlgate serve --workers 1`` process in each form (plain and gzipped), by a
client that reads at its own pace, while another client asks /health every 10 ms.

    python bench/ndjson_memory.py [--rows 200000]

Prints the gateway process's peak resident memory (VmHWM), the answer's time and the
longest /health wait. On a loaded 2-core machine (2026-11-29), 200,000 rows: every form
peaked at 269 MiB (idle 46), the answer took 1.4-2.4 s and /health waited up to 0.3-0.8 s
in every form. The peak and the stall are the decoding of the upstream's 40 MB answer,
before any answer is written: the engine gathers a result whole, so NDJSON saves the
encoded copy (and its compressed one) and lets the client parse as rows arrive, but
bounding the gateway's own memory needs rows streamed from the upstream through the
engine, which this bench will show when they are.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def upstream(rows: int) -> tuple[ThreadingHTTPServer, str]:
    body = json.dumps([{"n": i, "pad": "x" * 180} for i in range(rows)]).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def measure(root: Path, accept: str, encoding: str) -> tuple[int, int, float, float]:
    """The gateway's peak memory (KiB) before and after one answer, the answer's seconds,
    and the longest a /health request waited meanwhile."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "1", "--no-access-log",
         "--tables", str(root / "tables"), "--routes", str(root / "routes"), "--config", str(root / "config.json")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        before = peak_kib(proc.pid)
        stalls: list[float] = []
        done = threading.Event()

        def ping() -> None:  # how long another request waits while the big one is answered
            while not done.is_set():
                started = time.perf_counter()
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=60).read()
                stalls.append(time.perf_counter() - started)
                time.sleep(0.01)

        pinger = threading.Thread(target=ping)
        pinger.start()
        started = time.perf_counter()
        headers = {"Accept": accept, "Accept-Encoding": encoding}
        request = urllib.request.Request(f"http://127.0.0.1:{port}/rows", headers=headers)
        with urllib.request.urlopen(request, timeout=300) as answer:
            while answer.read(256 * 1024):
                time.sleep(0.002)  # a client that reads at its own pace
        seconds = time.perf_counter() - started
        done.set()
        pinger.join()
        return before, peak_kib(proc.pid), seconds, max(stalls, default=0.0)
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args()
    server, base = upstream(args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "tables").mkdir()
        (root / "routes").mkdir()
        (root / "tables" / "rows.ql").write_text("create table rows on select get from '{config.base}/rows'")
        (root / "routes" / "rows.ql").write_text("return select * from rows via route '/rows' using method get;")
        (root / "config.json").write_text(json.dumps({"base": base, "maxResponseLength": 200_000_000}))
        print(f"{args.rows:,} rows, ~{args.rows * 200 / 1e6:.0f} MB of JSON, read by a slow client:")
        for encoding in ("identity", "gzip"):
            for name, accept in (("JSON", "application/json"), ("NDJSON", "application/x-ndjson")):
                before, after, seconds, stall = measure(root, accept, encoding)
                shown = f"{name}, {encoding}"
                print(
                    f"  {shown:16} peak {after / 1024:4.0f} MiB (idle {before / 1024:.0f}), answer {seconds:.1f} s, "
                    f"longest /health meanwhile {stall * 1000:.0f} ms"
                )
    server.shutdown()


if __name__ == "__main__":
    main()
