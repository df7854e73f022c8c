"""Gateway benchmark (issue 4): req/s and p50/p99 through ``qlgate serve`` against
a loopback upstream, beside two floors measured in the same run — the upstream
hit directly and a minimal aiohttp one-hop proxy.

    python bench/gateway.py [--workers 2] [--seconds 5] [--delay-ms 0 20] [--loadgen wrk|python]

The load comes from wrk (Debian's ``wrk``, C, keep-alive) when it is installed, so
the load generator takes little of the two cores from the gateway; else from
``bench/loadgen.py`` (Python, heavier).

(a) /q: select * from T where q = "x"        (~6 KB of JSON)
(b) /q: a 3-field projection of it
(c) /q: select … from details where id in (select id from finditems …)   (10 ids)
(d) a named route running (c)
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLES = """
create table finditems on select get from "{config.base}/search?q={q}&ms={config.delay}" resultset 'items'
create table details on select get from "{config.base}/details?id={id}&ms={config.delay}" resultset 'item'
"""
NESTED = 'select id, title from details where id in (select id from finditems where q = "x")'
ROUTE = f"return {NESTED} via route '/bench/details' using method get;"
SCRIPTS = {
    "(a) select *": 'select * from finditems where q = "x"',
    "(b) 3 fields": 'select id, title, price.value from finditems where q = "x"',
    "(c) in-select, 10 ids": NESTED,
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(
    port: int, config: Path, *, tables: Path, routes: Path | None = None, workers: int = 1, extra: tuple = ()
) -> list[str]:
    """``qlgate serve`` as the benches start it: one worker unless asked (``serve``'s own
    default follows the machine's cores, and a figure must say how many served)."""
    command = [sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", str(workers)]
    command += ["--tables", str(tables), "--config", str(config)]
    if routes is not None:
        command += ["--routes", str(routes)]
    return [*command, *extra]


def stop_all(procs: list[subprocess.Popen]) -> None:
    """SIGTERM to every process a bench started, then SIGKILL to any still running."""
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def wait(url: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{url} did not come up")


def load(url: str, concurrency: int, seconds: float, loadgen: str, headers: dict[str, str] | None = None) -> dict:
    flags = [part for name, value in (headers or {}).items() for part in ("-H", f"{name}: {value}")]
    if loadgen == "wrk":
        return wrk(url, concurrency, seconds, flags)
    out = subprocess.run(
        [
            sys.executable,
            str(HERE / "loadgen.py"),
            url,
            "--concurrency",
            str(concurrency),
            "--seconds",
            str(seconds),
            *flags,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


_UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def wrk(url: str, concurrency: int, seconds: float, flags: list[str] = ()) -> dict:
    out = subprocess.run(
        ["wrk", "--latency", "-t", "1", "-c", str(concurrency), "-d", f"{max(1, round(seconds))}s", *flags, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    def percentile(p: str) -> float:
        value, unit = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * _UNIT_MS[unit]

    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    errors = (int(bad.group(1)) if bad else 0) + (sum(map(int, socket_errors.groups())) if socket_errors else 0)
    return {
        "rps": round(float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))),
        "errors": errors,
        "p50_ms": percentile("50"),
        "p99_ms": percentile("99"),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--delay-ms", type=int, nargs="+", default=[0, 20])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[50, 100])
    parser.add_argument("--loadgen", choices=("wrk", "python"), default="wrk" if shutil.which("wrk") else "python")
    args = parser.parse_args()
    print(
        f"command: python bench/gateway.py --workers {args.workers} --seconds {args.seconds} "
        f"--delay-ms {' '.join(map(str, args.delay_ms))} --concurrency {' '.join(map(str, args.concurrency))} "
        f"--loadgen {args.loadgen}"
    )
    upstream = subprocess.Popen([sys.executable, str(HERE / "upstream.py")], stdout=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{int(upstream.stdout.readline())}"
        for delay in args.delay_ms:
            run_at_delay(base, delay, args)
    finally:
        upstream.terminate()
        upstream.wait(10)


def run_at_delay(base: str, delay: int, args: argparse.Namespace) -> None:
    """One gateway and one proxy whose upstream answers after ``delay`` ms."""
    work = Path(tempfile.mkdtemp(prefix="qlgate-bench-"))
    (work / "tables").mkdir()
    (work / "routes").mkdir()
    (work / "tables" / "bench.ql").write_text(TABLES)
    (work / "routes" / "details.ql").write_text(ROUTE)
    (work / "config.json").write_text(json.dumps({"base": base, "delay": delay}))
    gw_port, proxy_port = free_port(), free_port()
    procs = [
        subprocess.Popen(
            serve_command(
                gw_port, work / "config.json", tables=work / "tables", routes=work / "routes", workers=args.workers
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ),
        subprocess.Popen([sys.executable, str(HERE / "proxy.py"), str(proxy_port), f"{base}/search?q=x&ms={delay}"]),
    ]
    try:
        gateway = f"http://127.0.0.1:{gw_port}"
        wait(f"{gateway}/health")
        wait(f"http://127.0.0.1:{proxy_port}/")
        targets = {
            "floor: upstream direct": f"{base}/search?q=x&ms={delay}",
            "floor: one-hop aiohttp proxy": f"http://127.0.0.1:{proxy_port}/",
        }
        for name, script in SCRIPTS.items():
            targets[name] = f"{gateway}/q?" + urllib.parse.urlencode({"s": script})
        targets["(d) route running (c)"] = f"{gateway}/bench/details"
        for concurrency in args.concurrency:
            print(
                f"\nconcurrency {concurrency}, upstream delay {delay} ms, {args.workers} worker(s), "
                f"load from {args.loadgen}:",
                flush=True,
            )
            rates = {}
            for name, url in targets.items():
                load(url, concurrency, 1, args.loadgen)  # warm up
                r = load(url, concurrency, args.seconds, args.loadgen)
                rates[name] = r["rps"]
                share = (
                    f"   {r['rps'] / rates['floor: one-hop aiohttp proxy']:.0%} of the proxy"
                    if name.startswith("(a)")
                    else ""
                )
                print(
                    f"  {name:32} {r['rps']:>7} req/s   p50 {r['p50_ms']:7.2f} ms   p99 {r['p99_ms']:7.2f} ms"
                    + share
                    + (f"   ERRORS {r['errors']}" if r["errors"] else ""),
                    flush=True,
                )
    finally:
        stop_all(procs)


if __name__ == "__main__":
    main()
