"""qlgate against ql.io 0.8.8 (issue 18): one interleaved run, one serving process each,
the same loopback upstream for everyone, load from ``wrk -t1 -c50``.

    python bench/vs_qlio.py [--rounds 2] [--seconds 4] [--concurrency 50] [--upstream bench|peer]
                            [--peer-dir DIR] [--peer-src ../shared/peers/qlio]

The peer is rebuilt by ``../shared/peers/qlio/setup.sh`` in a temporary directory (removed at the
end) unless ``--peer-dir`` names one already built (or to build into and keep); nothing of ql.io
enters the repository. ql.io serves with its ``server.js`` (1 worker) from the peer's tables, the
upstream port substituted; qlgate serves ``--workers 1`` from the same three tables written in its
own syntax to a temporary directory; the floor is ``bench/proxy.py`` (one aiohttp hop) to the
upstream's ``/search``. The workloads are the peer's ``scripts.py``:

(a) ``S["a"]``  select * of the ~6 KB search answer
(b) ``S["b"]``  a 3-field projection of it
(c) ``S["c"]``  1 + 10 fan-out: the search's 10 ids, then 10 ``details`` calls

Before timing, each workload is run once on both and the JSON answers compared. Each round loads
every (workload, server) cell for ``--seconds``; odd rounds run the cells in reverse order. For
every cell: req/s over all rounds, and CPU per request of the serving process (utime + stime
from ``/proc/PID/stat``, the process and its descendants, before and after each load).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from gateway import free_port, serve_command, stop_all, wait  # noqa: E402

# The peer's three tables (shared/peers/qlio/tables) in qlgate's syntax, the base from config.
QLGATE_TABLES = """\
create table finditems on select get from "{config.base}/search?q={q}&ms={ms}" using defaults ms = "0" resultset 'items'
create table details on select get from "{config.base}/details?id={id}&ms={ms}" using defaults ms = "0" resultset 'item'
create table idlist on select get from "{config.base}/ids?n={n}&ms={ms}" using defaults ms = "0" resultset 'items'
"""
WORKLOADS = {"a": "(a) select *", "b": "(b) 3 fields", "c": "(c) 1+10 fan-out"}
CLK_TCK = os.sysconf("SC_CLK_TCK")
_UNIT_S = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}


def load_scripts(peer_src: Path):
    spec = importlib.util.spec_from_file_location("qlio_peer_scripts", peer_src / "scripts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def descendants(pid: int) -> list[int]:
    """``pid`` and every live process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, ()))
    return found


def cpu_seconds(pid: int) -> float:
    """utime + stime of ``pid`` and its live descendants, in seconds."""
    ticks = 0
    for p in descendants(pid):
        try:
            stat = Path(f"/proc/{p}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        ticks += int(fields[11]) + int(fields[12])  # fields 14 and 15 of stat(5): utime, stime
    return ticks / CLK_TCK


def wrk(url: str, concurrency: int, seconds: int) -> dict:
    out = subprocess.run(
        ["wrk", "-t", "1", "-c", str(concurrency), "-d", f"{seconds}s", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    count, duration, unit = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)\b", out).groups()
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "requests": int(count),
        "seconds": float(duration) * _UNIT_S[unit],
        "errors": (int(bad.group(1)) if bad else 0) + (sum(map(int, socket_errors.groups())) if socket_errors else 0),
    }


def measure(url: str, pid: int, concurrency: int, seconds: int) -> dict:
    before = cpu_seconds(pid)
    r = wrk(url, concurrency, seconds)
    r["cpu"] = cpu_seconds(pid) - before
    return r


def fetch_json(url: str):
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.load(answer)


def build_peer(peer_src: Path, peer_dir: Path) -> None:
    if (
        (peer_dir / "server.js").exists()
        and (peer_dir / "engine" / "lib").is_dir()
        and (peer_dir / "node_modules").is_dir()
    ):
        print(f"peer: reusing {peer_dir}", flush=True)
        return
    print(f"peer: building ql.io 0.8.8 in {peer_dir} ...", flush=True)
    started = time.monotonic()
    subprocess.run(["bash", str(peer_src / "setup.sh"), str(peer_dir)], check=True, capture_output=True, text=True)
    print(f"peer: built in {time.monotonic() - started:.1f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=4, help="seconds of load per cell and round")
    parser.add_argument("--warmup", type=int, default=1, help="seconds of load per cell before the first round")
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument(
        "--upstream",
        choices=("bench", "peer"),
        default="bench",
        help="bench/upstream.py (asyncio protocol, cheap) or the peer's upstream.py (aiohttp)",
    )
    parser.add_argument("--peer-src", type=Path, default=ROOT.parent / "shared" / "peers" / "qlio")
    parser.add_argument("--peer-dir", type=Path, help="an already built peer to reuse (or a directory to build it in)")
    args = parser.parse_args()
    print(
        f"command: python bench/vs_qlio.py --rounds {args.rounds} --seconds {args.seconds} --warmup {args.warmup} "
        f"--concurrency {args.concurrency} --upstream {args.upstream} --peer-src {args.peer_src}"
        + (f" --peer-dir {args.peer_dir}" if args.peer_dir else ""),
        flush=True,
    )
    if not shutil.which("wrk") or not shutil.which("node"):
        raise SystemExit("needs wrk and node on PATH")
    node_version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"machine: {os.cpu_count()} CPUs, node {node_version}, python {sys.version.split()[0]}", flush=True)
    peer_src = args.peer_src.resolve()
    scripts = load_scripts(peer_src)
    work = Path(tempfile.mkdtemp(prefix="qlgate-vs-qlio-"))
    peer_dir = args.peer_dir.resolve() if args.peer_dir else work / "peer"
    procs: list[subprocess.Popen] = []
    try:
        build_peer(peer_src, peer_dir)
        run(args, scripts, peer_src, peer_dir, work, procs)
    finally:
        stop_all(procs)
        shutil.rmtree(work, ignore_errors=True)


def run(args, scripts, peer_src: Path, peer_dir: Path, work: Path, procs: list[subprocess.Popen]) -> None:
    # the upstream, one for everyone
    if args.upstream == "bench":
        upstream = subprocess.Popen([sys.executable, str(HERE / "upstream.py")], stdout=subprocess.PIPE, text=True)
        procs.append(upstream)
        up_port = int(upstream.stdout.readline())
    else:
        up_port = free_port()
        procs.append(
            subprocess.Popen(
                [sys.executable, str(peer_src / "upstream.py"), str(up_port)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    base = f"http://127.0.0.1:{up_port}"
    wait(f"{base}/search?q=x")

    # ql.io: the peer's tables with our upstream port, its config, one process
    qlio_tables = work / "qlio-tables"
    qlio_tables.mkdir()
    for table in sorted((peer_src / "tables").glob("*.ql")):
        (qlio_tables / table.name).write_text(table.read_text().replace("127.0.0.1:27080", f"127.0.0.1:{up_port}"))
    qlio_port = free_port()
    qlio = subprocess.Popen(
        [
            "node",
            str(peer_dir / "server.js"),
            str(qlio_port),
            str(qlio_tables),
            str(peer_dir / "qlio-config.json"),
            "1",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs.append(qlio)

    # qlgate: the same tables in its syntax, one worker
    (work / "tables").mkdir()
    (work / "routes").mkdir()
    (work / "tables" / "bench.ql").write_text(QLGATE_TABLES)
    (work / "config.json").write_text(json.dumps({"base": base}))
    qlgate_port = free_port()
    qlgate = subprocess.Popen(
        serve_command(qlgate_port, work / "config.json", tables=work / "tables", routes=work / "routes"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs.append(qlgate)

    # the floor: one aiohttp hop to the upstream's /search
    proxy_port = free_port()
    proxy = subprocess.Popen([sys.executable, str(HERE / "proxy.py"), str(proxy_port), f"{base}/search?q=x"])
    procs.append(proxy)

    wait(f"http://127.0.0.1:{qlio_port}/health", timeout=60)
    wait(f"http://127.0.0.1:{qlgate_port}/health", timeout=60)
    wait(f"http://127.0.0.1:{proxy_port}/")
    servers = {"qlgate": (qlgate_port, qlgate.pid), "ql.io": (qlio_port, qlio.pid)}

    # the same answer from both, once, before timing
    print("\nsame answer check (JSON decoded and compared):", flush=True)
    for key, name in WORKLOADS.items():
        answers = {server: fetch_json(scripts.url(port, scripts.S[key])) for server, (port, _) in servers.items()}
        same = answers["qlgate"] == answers["ql.io"]
        size = len(json.dumps(answers["qlgate"], separators=(",", ":")))
        print(
            f"  {name:20} {'same JSON from qlgate and ql.io' if same else 'DIFFERENT answers'} ({size} bytes compact)",
            flush=True,
        )
        if not same:
            for server, answer in answers.items():
                print(f"    {server}: {json.dumps(answer)[:400]}", flush=True)

    cells = []  # (workload key, server, url, pid)
    for key in WORKLOADS:
        for server, (port, pid) in servers.items():
            cells.append((key, server, scripts.url(port, scripts.S[key]), pid))
        if key == "a":
            cells.append((key, "proxy", f"http://127.0.0.1:{proxy_port}/", proxy.pid))

    for _, _, url, _ in cells:  # warm up: connections, JIT, caches
        wrk(url, args.concurrency, args.warmup)

    totals = {(key, server): {"requests": 0, "seconds": 0.0, "cpu": 0.0, "errors": 0} for key, server, _, _ in cells}
    print(
        f"\n{args.rounds} rounds x {args.seconds} s per cell, wrk -t1 -c{args.concurrency}, upstream {args.upstream} "
        f"({base}), odd rounds in reverse order:",
        flush=True,
    )
    for round_no in range(args.rounds):
        order = cells if round_no % 2 == 0 else list(reversed(cells))
        for key, server, url, pid in order:
            r = measure(url, pid, args.concurrency, args.seconds)
            total = totals[(key, server)]
            for field in total:
                total[field] += r[field]
            print(
                f"  round {round_no + 1}  {WORKLOADS[key]:20} {server:7} {r['requests'] / r['seconds']:8.0f} req/s"
                f"  {r['cpu'] / max(r['requests'], 1) * 1e6:7.0f} µs CPU/req"
                + (f"  ERRORS {r['errors']}" if r["errors"] else ""),
                flush=True,
            )

    def rate(key: str, server: str) -> float:
        t = totals[(key, server)]
        return t["requests"] / t["seconds"]

    def cpu_per_request(key: str, server: str) -> float:
        t = totals[(key, server)]
        return t["cpu"] / max(t["requests"], 1) * 1e6

    print("\nall rounds:", flush=True)
    print(
        f"  {'workload':20} {'qlgate req/s':>12} {'ql.io req/s':>12} {'rps x':>6}   "
        f"{'qlgate µs CPU/req':>17} {'ql.io µs CPU/req':>16} {'CPU x':>6}",
        flush=True,
    )
    for key, name in WORKLOADS.items():
        errors = totals[(key, "qlgate")]["errors"] + totals[(key, "ql.io")]["errors"]
        print(
            f"  {name:20} {rate(key, 'qlgate'):12.0f} {rate(key, 'ql.io'):12.0f} "
            f"{rate(key, 'qlgate') / rate(key, 'ql.io'):5.2f}x   "
            f"{cpu_per_request(key, 'qlgate'):17.0f} {cpu_per_request(key, 'ql.io'):16.0f} "
            f"{cpu_per_request(key, 'ql.io') / cpu_per_request(key, 'qlgate'):5.2f}x"
            + (f"   ERRORS {errors}" if errors else ""),
            flush=True,
        )
    print("  (rps x = qlgate req/s / ql.io req/s; CPU x = ql.io CPU per request / qlgate CPU per request)")
    print(
        f"\n(a) qlgate vs the one-hop aiohttp proxy: qlgate {rate('a', 'qlgate'):.0f} req/s, "
        f"{cpu_per_request('a', 'qlgate'):.0f} µs CPU/req; proxy {rate('a', 'proxy'):.0f} req/s, "
        f"{cpu_per_request('a', 'proxy'):.0f} µs CPU/req; "
        f"req/s qlgate/proxy {rate('a', 'qlgate') / rate('a', 'proxy'):.2f}x, "
        f"CPU per request proxy/qlgate {cpu_per_request('a', 'proxy') / cpu_per_request('a', 'qlgate'):.2f}x"
        + (f"   ERRORS {totals[('a', 'proxy')]['errors']}" if totals[("a", "proxy")]["errors"] else ""),
        flush=True,
    )


if __name__ == "__main__":
    main()
