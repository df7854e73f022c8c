"""CPU per served request (issue 18, item 2): the gateway's own HTTP front against
aiohttp ``web`` serving the same app, in one interleaved run.

    python bench/served.py [--rounds 3] [--seconds 4] [--concurrency 50]

Two ``qlgate serve --workers 1 --no-access-log`` processes over the same tables and
the same loopback upstream (``bench/upstream.py``): one as shipped (the front serves
``/q`` and the routes), one started through this file with ``--aiohttp-only``, which
makes every connection aiohttp's from its first byte (the server's protocol factory
returns aiohttp's handler: what the gateway was before the front). Load from
``wrk -t1``; CPU per request is utime + stime of the serving process over the load.
Odd rounds run the cells in reverse order. Workloads:

  return 1     ``/q`` of a script that calls nothing: the serving path alone
  select *     ``/q`` of ``select *`` of the upstream's ~6 KB answer
  route        a named route running the same select
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gateway import free_port, serve_command, stop_all, wait  # noqa: E402
from vs_qlio import measure  # noqa: E402

TABLES = "create table finditems on select get from \"{config.base}/search?q={q}&ms=0\" resultset 'items'\n"
ROUTE = "return select * from finditems where q = '{q}' via route '/bench/items?q={q}' using method get;\n"
WORKLOADS = {
    "return 1": "/q?" + urllib.parse.urlencode({"s": "return 1;"}),
    "select *": "/q?" + urllib.parse.urlencode({"s": 'select * from finditems where q = "x"'}),
    "route": "/bench/items?q=x",
}


def aiohttp_only() -> None:
    """Run ``qlgate serve`` (the rest of argv) with aiohttp serving every connection."""
    from qlgate.cli import main
    from qlgate.server.protocol import GatewayServer

    GatewayServer.__call__ = GatewayServer._aiohttp_protocol  # type: ignore[method-assign]
    sys.exit(main(sys.argv[2:]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=50)
    args = parser.parse_args()
    procs: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        try:
            run(args, work, procs)
        finally:
            stop_all(procs)


def run(args: argparse.Namespace, work: Path, procs: list[subprocess.Popen]) -> None:
    upstream = subprocess.Popen([sys.executable, str(HERE / "upstream.py")], stdout=subprocess.PIPE, text=True)
    procs.append(upstream)
    base = f"http://127.0.0.1:{upstream.stdout.readline().strip()}"
    (work / "tables").mkdir()
    (work / "routes").mkdir()
    (work / "tables" / "bench.ql").write_text(TABLES)
    (work / "routes" / "bench.ql").write_text(ROUTE)
    (work / "config.json").write_text(f'{{"base": "{base}"}}')
    servers = {}
    for name in ("front", "aiohttp"):
        port = free_port()
        command = serve_command(
            port, work / "config.json", tables=work / "tables", routes=work / "routes", extra=("--no-access-log",)
        )
        if name == "aiohttp":
            command = [sys.executable, __file__, "--aiohttp-only", *command[3:]]
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(proc)
        servers[name] = (f"http://127.0.0.1:{port}", proc.pid)
    for url, _ in servers.values():
        wait(f"{url}/health")
    cells = [(w, s) for w in WORKLOADS for s in servers]
    for workload, server in cells:  # warm-up, and a check that both answer alike
        url, pid = servers[server]
        result = measure(url + WORKLOADS[workload], pid, args.concurrency, 1)
        assert result["errors"] == 0, (server, workload, result)
    totals = {cell: {"requests": 0, "seconds": 0.0, "cpu": 0.0} for cell in cells}
    print(
        f"command: python bench/served.py --rounds {args.rounds} --seconds {args.seconds} "
        f"--concurrency {args.concurrency}   (wrk -t1 -c{args.concurrency}, one process each, access log off)"
    )
    for round_ in range(args.rounds):
        for workload, server in cells if round_ % 2 == 0 else reversed(cells):
            url, pid = servers[server]
            result = measure(url + WORKLOADS[workload], pid, args.concurrency, args.seconds)
            assert result["errors"] == 0, (server, workload, result)
            for key in totals[(workload, server)]:
                totals[(workload, server)][key] += result[key]
    print(
        f"{'workload':10} {'front req/s':>12} {'aiohttp req/s':>14} {'front µs CPU':>13} {'aiohttp µs CPU':>15} {'CPU x':>6}"
    )
    for workload in WORKLOADS:
        front, aio = totals[(workload, "front")], totals[(workload, "aiohttp")]
        front_cpu = front["cpu"] / front["requests"] * 1e6
        aio_cpu = aio["cpu"] / aio["requests"] * 1e6
        print(
            f"{workload:10} {front['requests'] / front['seconds']:12.0f} {aio['requests'] / aio['seconds']:14.0f} "
            f"{front_cpu:13.1f} {aio_cpu:15.1f} {aio_cpu / front_cpu:5.2f}x"
        )
    print("(CPU x = aiohttp's CPU per request / the front's)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--aiohttp-only"]:
        aiohttp_only()
    else:
        main()
