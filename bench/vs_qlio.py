"""qlgate against ql.io 0.8.8 (issues 18 and 29): one interleaved run, one serving process each,
the same loopback upstream for everyone, load from ``wrk -t1 -c50``.

    python bench/vs_qlio.py [--rounds 3] [--seconds 4] [--concurrency 50] [--upstream bench|peer]
                            [--shared] [--peer-dir DIR] [--peer-src ../shared/peers/qlio]

Every request its own (the default, issue 29): a ``wrk`` Lua script numbers the requests
(``bench/unique.py``), each searches ``q = "x<N>"`` and the fan-out's details calls carry
``ms = "-<N>"`` (no delay upstream), so no two upstream GETs in flight are the same and none
can be shared. ``--shared`` also runs the old repeated-request cells (the same URL over and
over: qlgate shares identical GETs in flight, ql.io does not), reported in their own table,
labelled shared. Each cell prints upstream calls per answered request (``bench/upstream.py``
counts what it reads), so sharing shows.

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
every cell: req/s, CPU per request of the serving process (utime + stime from ``/proc/PID/stat``,
the process and its descendants, before and after each load) and upstream calls per answered
request. The ratios are taken per round (the cells of a round ran within seconds of each other)
and reported as median (min–max) over the rounds.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from gateway import free_port, serve_command, stop_all, wait  # noqa: E402
from unique import MARK, Load, Numbers, cpu_seconds, fmt_calls, machine_with_node, median_spread, wrk  # noqa: E402

# The peer's three tables (shared/peers/qlio/tables) in qlgate's syntax, the base from config.
QLGATE_TABLES = """\
create table finditems on select get from "{config.base}/search?q={q}&ms={ms}" using defaults ms = "0" resultset 'items'
create table details on select get from "{config.base}/details?id={id}&ms={ms}" using defaults ms = "0" resultset 'item'
create table idlist on select get from "{config.base}/ids?n={n}&ms={ms}" using defaults ms = "0" resultset 'items'
"""
WORKLOADS = {"a": "(a) select *", "b": "(b) 3 fields", "c": "(c) 1+10 fan-out"}
# (a) and (c) as named routes of qlgate (compiled once at start-up; ql.io's server.js serves /q only)
QLGATE_ROUTES = """\
return select * from finditems where q = '{q}' via route '/bench/a?q={q}' using method get;
return select id, title from details where id in (select id from finditems where q = '{q}') and ms = '{ms}' via route '/bench/c?q={q}&ms={ms}' using method get;
"""
ROUTE_PATHS = {"a": f"/bench/a?q=x{MARK}", "c": f"/bench/c?q=x{MARK}&ms=-{MARK}"}
# the same workloads, every request its own: MARK is the request's number
UNIQUE = {
    "a": f'select * from finditems where q = "x{MARK}"',
    "b": f'select id, title, price.value from finditems where q = "x{MARK}"',
    "c": f'select id, title from details where id in (select id from finditems where q = "x{MARK}") and ms = "-{MARK}"',
}


def load_scripts(peer_src: Path):
    spec = importlib.util.spec_from_file_location("qlio_peer_scripts", peer_src / "scripts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=4, help="seconds of load per cell and round")
    parser.add_argument("--warmup", type=int, default=1, help="seconds of load per cell before the first round")
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument(
        "--upstream",
        choices=("bench", "peer"),
        default="bench",
        help="bench/upstream.py (asyncio protocol, cheap, counts requests) or the peer's upstream.py (aiohttp)",
    )
    parser.add_argument("--shared", action="store_true", help="also the repeated-request cells, labelled shared")
    parser.add_argument("--peer-src", type=Path, default=ROOT.parent / "shared" / "peers" / "qlio")
    parser.add_argument("--peer-dir", type=Path, help="an already built peer to reuse (or a directory to build it in)")
    args = parser.parse_args()
    print(
        f"command: python bench/vs_qlio.py --rounds {args.rounds} --seconds {args.seconds} --warmup {args.warmup} "
        f"--concurrency {args.concurrency} --upstream {args.upstream} --peer-src {args.peer_src}"
        + (" --shared" if args.shared else "")
        + (f" --peer-dir {args.peer_dir}" if args.peer_dir else ""),
        flush=True,
    )
    machine_with_node()
    peer_src = args.peer_src.resolve()
    if not (peer_src / "setup.sh").is_file():  # outside material: not in a clone alone
        raise SystemExit(f"skipped: ql.io's peer (../shared/peers/qlio) is not at {peer_src}; give --peer-src DIR")
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


def q_path(script: str) -> str:
    """``/q?s=`` of ``script`` (MARK, if any, left as is for the Lua script to number)."""
    return "/q?" + urllib.parse.urlencode({"s": script})


def run(args, scripts, peer_src: Path, peer_dir: Path, work: Path, procs: list[subprocess.Popen]) -> None:
    # the upstream, one for everyone
    counting = None
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
    if args.upstream == "bench":
        counting = base

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
    for n, route in enumerate(QLGATE_ROUTES.splitlines()):
        (work / "routes" / f"bench{n}.ql").write_text(route + "\n")
    (work / "config.json").write_text(json.dumps({"base": base}))
    qlgate_port = free_port()
    qlgate = subprocess.Popen(
        serve_command(qlgate_port, work / "config.json", tables=work / "tables", routes=work / "routes"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs.append(qlgate)

    # the floor: one aiohttp hop to the upstream's /search (GET /?q=… forwards the query)
    proxy_port = free_port()
    proxy = subprocess.Popen([sys.executable, str(HERE / "proxy.py"), str(proxy_port), f"{base}/search?q=x"])
    procs.append(proxy)

    wait(f"http://127.0.0.1:{qlio_port}/health", timeout=60)
    wait(f"http://127.0.0.1:{qlgate_port}/health", timeout=60)
    wait(f"http://127.0.0.1:{proxy_port}/")
    servers = {"qlgate": (qlgate_port, qlgate.pid), "ql.io": (qlio_port, qlio.pid)}

    # the same answer from both, once, before timing (a shared and a numbered form of each)
    print("\nsame answer check (JSON decoded and compared):", flush=True)
    for key, name in WORKLOADS.items():
        for form, script in (("shared", scripts.S[key]), ("unique", UNIQUE[key].replace(MARK, "7"))):
            answers = {
                server: fetch_json(f"http://127.0.0.1:{port}{q_path(script)}") for server, (port, _) in servers.items()
            }
            same = answers["qlgate"] == answers["ql.io"]
            size = len(json.dumps(answers["qlgate"], separators=(",", ":")))
            print(
                f"  {name:20} {form:6} {'same JSON from qlgate and ql.io' if same else 'DIFFERENT answers'} "
                f"({size} bytes compact)",
                flush=True,
            )
            if not same:
                for server, answer in answers.items():
                    print(f"    {server}: {json.dumps(answer)[:400]}", flush=True)

    modes = ["unique"] + (["shared"] if args.shared else [])
    cells = []  # (mode, workload key, server, origin, path, pid)
    for mode in modes:
        for key in WORKLOADS:
            for server, (port, pid) in servers.items():
                path = q_path(UNIQUE[key] if mode == "unique" else scripts.S[key])
                cells.append((mode, key, server, f"http://127.0.0.1:{port}", path, pid))
            if key == "a":
                path = f"/?q=x{MARK}" if mode == "unique" else "/"
                cells.append((mode, key, "proxy", f"http://127.0.0.1:{proxy_port}", path, proxy.pid))
            if mode == "unique" and key in ROUTE_PATHS:  # for reference: no compile per request
                cells.append((mode, key, "route", f"http://127.0.0.1:{qlgate_port}", ROUTE_PATHS[key], qlgate.pid))

    load = Load(work, Numbers(), args.concurrency, counting, [qlgate.pid, qlio.pid, proxy.pid])
    for _, _, _, origin, path, pid in cells:  # warm up: connections, JIT, caches
        load.run(origin, path, pid, args.warmup)

    results: dict[tuple, list[dict]] = {cell[:3]: [] for cell in cells}
    print(
        f"\n{args.rounds} rounds x {args.seconds} s per cell, wrk -t1 -c{args.concurrency}, upstream {args.upstream} "
        f"({base}), odd rounds in reverse order; calls = upstream calls per answered request:",
        flush=True,
    )
    for round_no in range(args.rounds):
        order = cells if round_no % 2 == 0 else list(reversed(cells))
        for mode, key, server, origin, path, pid in order:
            r = load.run(origin, path, pid, args.seconds)
            results[(mode, key, server)].append(r)
            print(
                f"  round {round_no + 1}  {mode:6} {WORKLOADS[key]:20} {server:7} {r['rps']:8.0f} req/s"
                f"  {r['cpu_us']:7.0f} µs CPU/req  calls {fmt_calls(r['calls'])}"
                + (f"  ERRORS {r['errors']}" if r["errors"] else ""),
                flush=True,
            )

    def med(mode: str, key: str, server: str, field: str) -> float:
        return statistics.median(r[field] for r in results[(mode, key, server)])

    def ratios(mode: str, key: str, a: str, b: str, field: str, invert: bool = False) -> list[float]:
        pairs = zip(results[(mode, key, a)], results[(mode, key, b)])
        return [(y[field] / x[field]) if invert else (x[field] / y[field]) for x, y in pairs]

    def calls(mode: str, key: str, server: str) -> str:
        values = [r["calls"] for r in results[(mode, key, server)] if r["calls"] is not None]
        return fmt_calls(statistics.median(values) if values else None)

    for mode in modes:
        label = (
            "EVERY REQUEST ITS OWN (unique search terms; nothing to share)"
            if mode == "unique"
            else "SHARED: the same request over and over (qlgate shares identical upstream GETs in flight)"
        )
        print(f"\n{label} — medians over {args.rounds} rounds, ratios per round: median (min–max):", flush=True)
        print(
            f"  {'workload':20} {'qlgate req/s':>12} {'ql.io req/s':>12} {'rps x':>18}   "
            f"{'qlgate µs/req':>13} {'ql.io µs/req':>12} {'CPU x':>18}   {'calls qlgate':>12} {'ql.io':>6}",
            flush=True,
        )
        for key, name in WORKLOADS.items():
            errors = sum(r["errors"] for server in ("qlgate", "ql.io") for r in results[(mode, key, server)])
            print(
                f"  {name:20} {med(mode, key, 'qlgate', 'rps'):12.0f} {med(mode, key, 'ql.io', 'rps'):12.0f} "
                f"{median_spread(ratios(mode, key, 'qlgate', 'ql.io', 'rps')):>18}   "
                f"{med(mode, key, 'qlgate', 'cpu_us'):13.0f} {med(mode, key, 'ql.io', 'cpu_us'):12.0f} "
                f"{median_spread(ratios(mode, key, 'qlgate', 'ql.io', 'cpu_us', invert=True)):>18}   "
                f"{calls(mode, key, 'qlgate'):>12} {calls(mode, key, 'ql.io'):>6}"
                + (f"   ERRORS {errors}" if errors else ""),
                flush=True,
            )
        print("  (rps x = qlgate req/s / ql.io req/s; CPU x = ql.io CPU per request / qlgate CPU per request)")
        for key in ROUTE_PATHS if mode == "unique" else ():
            print(
                f"  {WORKLOADS[key]} as a qlgate route (compiled once, each request its own): "
                f"{med(mode, key, 'route', 'rps'):.0f} req/s, {med(mode, key, 'route', 'cpu_us'):.0f} µs CPU/req, "
                f"calls {calls(mode, key, 'route')}; against ql.io's /q: req/s "
                f"{median_spread(ratios(mode, key, 'route', 'ql.io', 'rps'))}, CPU "
                f"{median_spread(ratios(mode, key, 'route', 'ql.io', 'cpu_us', invert=True))}",
                flush=True,
            )
        proxy_errors = sum(r["errors"] for r in results[(mode, "a", "proxy")])
        print(
            f"  (a) qlgate vs the one-hop aiohttp proxy ({mode}): qlgate {med(mode, 'a', 'qlgate', 'rps'):.0f} req/s, "
            f"{med(mode, 'a', 'qlgate', 'cpu_us'):.0f} µs CPU/req, calls {calls(mode, 'a', 'qlgate')}; "
            f"proxy {med(mode, 'a', 'proxy', 'rps'):.0f} req/s, {med(mode, 'a', 'proxy', 'cpu_us'):.0f} µs CPU/req, "
            f"calls {calls(mode, 'a', 'proxy')}; req/s qlgate/proxy "
            f"{median_spread(ratios(mode, 'a', 'qlgate', 'proxy', 'rps'))}, CPU per request proxy/qlgate "
            f"{median_spread(ratios(mode, 'a', 'qlgate', 'proxy', 'cpu_us', invert=True))}"
            + (f"   ERRORS {proxy_errors}" if proxy_errors else ""),
            flush=True,
        )


if __name__ == "__main__":
    main()
