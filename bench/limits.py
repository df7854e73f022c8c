"""What limits cost when they do not bind (issue 17): gateway throughput on a
fan-out with the table's API type limited (calls in flight and a call rate, both
far above what the load reaches) against the same gateway with no limits, in
interleaved rounds, as a ratio.

    python bench/limits.py [--rounds 3] [--seconds 4] [--concurrency 50] [--fan-out 5]

Each gateway is one ``qlgate serve`` process with its own embedded job database
(the host's limits store); the limited one has ``bench`` set to 100,000 calls in
flight and 1,000,000 calls per second. The upstream is ``bench/upstream.py``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gateway import free_port, load, serve_command, stop_all, wait  # noqa: E402

TABLES = 'create table bench.details on select get from "{config.base}/details?id={id}"\n'


def gateway(base: str, limited: bool) -> tuple[subprocess.Popen, str, Path]:
    work = Path(tempfile.mkdtemp(prefix="qlgate-bench-limits-"))
    (work / "tables").mkdir()
    (work / "tables" / "bench.ql").write_text(TABLES)
    (work / "config.json").write_text(json.dumps({"base": base, "jobs": {"database": str(work / "jobs.sqlite")}}))
    port = free_port()
    proc = subprocess.Popen(
        serve_command(port, work / "config.json", tables=work / "tables"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    wait(f"{url}/health")
    if limited:
        for path, body in (("limits/bench", {"limit": 100_000}), ("rates/bench", "1000000/s")):
            request = urllib.request.Request(
                f"{url}/{path}",
                data=json.dumps(body).encode(),
                method="PUT",
                headers={"Content-Type": "application/json"},
            )
            urllib.request.urlopen(request, timeout=10).read()
    return proc, url, work


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--fan-out", type=int, default=5)
    parser.add_argument("--swap", action="store_true", help="start the limited gateway first")
    parser.add_argument("--loadgen", choices=("wrk", "python"), default="wrk" if shutil.which("wrk") else "python")
    args = parser.parse_args()
    print(
        f"command: python bench/limits.py --rounds {args.rounds} --seconds {args.seconds} "
        f"--concurrency {args.concurrency} --fan-out {args.fan_out} --loadgen {args.loadgen}"
        + (" --swap" if args.swap else "")
    )
    ids = ", ".join(f'"{i}"' for i in range(args.fan_out))
    script = f"return select * from bench.details where id in ({ids});"
    print(f"script: {script}  (one /q request = {args.fan_out} upstream calls)")
    upstream = subprocess.Popen([sys.executable, str(HERE / "upstream.py")], stdout=subprocess.PIPE, text=True)
    procs: list[subprocess.Popen] = []
    try:
        base = f"http://127.0.0.1:{int(upstream.stdout.readline())}"
        # started in turn, which first alternating with --swap: the order a process starts in
        # should not be what the ratio measures
        if args.swap:
            limited, plain = gateway(base, True), gateway(base, False)
        else:
            plain, limited = gateway(base, False), gateway(base, True)
        procs = [plain[0], limited[0]]
        query = "/q?" + urllib.parse.urlencode({"s": script})
        rates: dict[str, list[float]] = {"no limits": [], "limits, not binding": []}
        for _, url, _ in (plain, limited):
            load(url + query, args.concurrency, 1, args.loadgen)  # warm up
        for round_ in range(args.rounds):
            order = [("no limits", plain), ("limits, not binding", limited)]
            for name, (_, url, _) in order if round_ % 2 == 0 else order[::-1]:
                result = load(url + query, args.concurrency, args.seconds, args.loadgen)
                assert not result["errors"], f"{name}: {result['errors']} errors"
                rates[name].append(result["rps"])
                print(f"  round {round_ + 1}  {name:20} {result['rps']:>7} req/s   p99 {result['p99_ms']:7.2f} ms")
        plain_rps, limited_rps = (statistics.median(rates[k]) for k in rates)
        print(
            f"median: no limits {plain_rps:.0f} req/s, limits not binding {limited_rps:.0f} req/s: "
            f"ratio {limited_rps / plain_rps:.3f} (cost {1 - limited_rps / plain_rps:+.1%})"
        )
    finally:
        stop_all([*procs, upstream])


if __name__ == "__main__":
    main()
