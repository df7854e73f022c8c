"""What checking API keys costs (issue 13): ``/q`` throughput of one gateway with
``gateway.auth`` against one without, same tables, same upstream, measured in
interleaved rounds so the host's noise falls on both alike.

    python bench/auth.py [--rounds 5] [--seconds 3] [--concurrency 50] [--loadgen wrk|python]

Prints req/s and the gateway's CPU per request for each, per round, and the
median cost of the check as a share of throughput and of CPU (target: < 3%).
Both configs hold the same number of secrets (API keys are secrets, and every
answer is masked for the config's secrets), so the figure is the cost of
checking keys, not of masking.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from unittest import mock

from gateway import free_port, load, wait

HERE = Path(__file__).resolve().parent
KEY = "bench-" + "k" * 40
SCRIPT = 'select * from finditems where q = "x"'


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


AUTH = {
    "gateway": {
        "auth": {
            "keys": [
                {"name": f"other-{i}", "key": f"other-key-{i:02d}-" + "x" * 20, "scopes": ["routes"]} for i in range(4)
            ]
            + [{"name": "bench", "key": KEY, "scopes": ["query"]}]
        }
    }
}


def check_cost(config: dict, repeat: int = 20_000) -> float:
    """µs of ``Gatekeeper.authorize`` per request, on a request as wrk sends it (the
    figure the throughput comparison above measures through the noise)."""
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request

    from qlgate.server.auth import Gatekeeper

    app = web.Application()
    app.router.add_route("*", "/q", lambda r: web.Response())
    keeper = Gatekeeper.from_config(config)
    headers = (
        {"Host": "127.0.0.1:3000", "Authorization": f"Bearer {KEY}"} if keeper.keys else {"Host": "127.0.0.1:3000"}
    )
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (
        ("127.0.0.1", 50000) if name == "peername" else default
    )
    request = make_mocked_request("GET", "/q?s=x", headers=headers, app=app, transport=transport)
    request._match_info = asyncio.run(app.router.resolve(request))  # as the server does before middlewares
    keeper.authorize(request)
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(repeat):
            keeper.authorize(request)
        best = min(best, (time.perf_counter() - started) / repeat * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--loadgen", choices=("wrk", "python"), default="wrk" if shutil.which("wrk") else "python")
    args = parser.parse_args()
    print(
        f"command: python bench/auth.py --rounds {args.rounds} --seconds {args.seconds} "
        f"--concurrency {args.concurrency} --loadgen {args.loadgen}"
    )
    upstream = subprocess.Popen([sys.executable, str(HERE / "upstream.py")], stdout=subprocess.PIPE, text=True)
    work = Path(tempfile.mkdtemp(prefix="qlgate-bench-auth-"))
    (work / "tables").mkdir()
    (work / "tables" / "bench.ql").write_text(
        "create table finditems on select get from \"{config.base}/search?q={q}&ms=0\" resultset 'items'"
    )
    gateways: dict[str, tuple[subprocess.Popen, str]] = {}
    try:
        base = f"http://127.0.0.1:{int(upstream.stdout.readline())}"
        same_secrets = {"partners": {f"p{i}": {"token": f"partner-token-{i:02d}-" + "y" * 20} for i in range(5)}}
        for name, extra in (("open", same_secrets), ("API keys", AUTH)):
            config = work / f"{len(gateways)}.json"
            config.write_text(json.dumps({"base": base, **extra}))
            port = free_port()
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "qlgate",
                    "serve",
                    "--tables",
                    str(work / "tables"),
                    "--config",
                    str(config),
                    "--port",
                    str(port),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            gateways[name] = (proc, f"http://127.0.0.1:{port}")
            wait(f"http://127.0.0.1:{port}/health")
        headers = {"API keys": {"Authorization": f"Bearer {KEY}"}, "open": {}}
        rates: dict[str, list[float]] = {name: [] for name in gateways}
        cpu: dict[str, list[float]] = {name: [] for name in gateways}
        for number in range(1, args.rounds + 1):
            order = list(gateways) if number % 2 else list(reversed(gateways))
            line = []
            for name in order:
                proc, url = gateways[name]
                target = f"{url}/q?" + urllib.parse.urlencode({"s": SCRIPT})
                load(target, args.concurrency, 1, args.loadgen, headers[name])  # warm up
                before = cpu_seconds(proc.pid)
                result = load(target, args.concurrency, args.seconds, args.loadgen, headers[name])
                if result["errors"]:
                    raise SystemExit(f"{name}: {result['errors']} failed requests")
                used = cpu_seconds(proc.pid) - before
                rates[name].append(result["rps"])
                cpu[name].append(used / (result["rps"] * args.seconds) * 1e6)
                line.append(f"{name} {result['rps']:>6} req/s {cpu[name][-1]:6.0f} µs CPU/req")
            print(f"  round {number}: " + "   ".join(line), flush=True)
        throughput = statistics.median(1 - a / o for a, o in zip(rates["API keys"], rates["open"]))
        cpu_cost = statistics.median(a / o - 1 for a, o in zip(cpu["API keys"], cpu["open"]))
        check = {name: check_cost(extra) for name, extra in (("open", {}), ("API keys", AUTH))}
        per_request = statistics.median(cpu["open"])
        print(
            f"\n/q with API keys vs open, median of {args.rounds} interleaved rounds:"
            f"\n  throughput cost {throughput:+.1%}   CPU per request cost {cpu_cost:+.1%}   (target < 3%)"
            f"\n  the check alone, in process: open {check['open']:.1f} µs, API keys {check['API keys']:.1f} µs"
            f" per request = {(check['API keys'] - check['open']) / per_request:+.2%} of the "
            f"{per_request:.0f} µs a /q request costs"
        )
    finally:
        for proc, _ in gateways.values():
            proc.terminate()
            proc.wait(10)
        upstream.terminate()
        upstream.wait(10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
