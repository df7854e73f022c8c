"""qlgate against GraphQL Mesh v1 / Hive Gateway (issue 29): one interleaved run, one serving
process each, the same loopback upstream (``bench/upstream.py``, which counts what it reads),
load from ``wrk -t1 -c50``, every request its own.

    python bench/vs_mesh.py [--rounds 3] [--seconds 4] [--concurrency 50] [--shared] [--mesh-jit]
                            [--peer-dir DIR] [--peer-src ../shared/peers/graphql-mesh]

The peer is installed by ``../shared/peers/graphql-mesh/setup.sh`` in a temporary directory
(removed at the end) unless ``--peer-dir`` names one already installed (or to install into and
keep); nothing of it enters the repository. For unique fan-out requests the peer's link needs a
``details(ms: Int)`` argument passed to the ``details`` operation: its ``mesh.config.mjs`` is
rewritten so in the peer directory at run time (two substitutions, checked), then ``serve.sh``
composes the supergraph and runs ONE Hive Gateway process (production settings; graphql-jit
with ``--mesh-jit``). qlgate serves ``--workers 1`` the three tables of ``bench/vs_qlio.py``.

Workloads (the peer's ``workloads.py``), each request numbered by a wrk Lua script
(``bench/unique.py``):

(a) select * of the ~6 KB search   ``q = "x<N>"``  /  ``search(q: "x<N>") { items { …all fields… } }``
(c) 1+10 fan-out                   ``… q = "x<N>") and ms = "-<N>"``  /
                                   ``search(q: "x<N>") { items { details(ms: -<N>) { id title } } }``

(the upstream sleeps no time on a negative ms: only the details calls become unique). Before
timing, both forms of each workload are checked to give the same rows on both sides. Each cell:
req/s, CPU µs per request of the serving process (utime + stime, ``/proc/PID/stat``), upstream
calls per answered request; ratios per round, median (min–max) over the rounds. ``--shared``
adds the repeated-request cells (the same request over and over), labelled shared. For
reference, (a) and (c) also run as qlgate named routes (compiled once at start-up; a new ``/q``
script is compiled per request, as Hive Gateway parses and validates each new query).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
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
from unique import MARK, Load, Numbers, fmt_calls, machine_with_node, median_spread  # noqa: E402
from vs_qlio import QLGATE_ROUTES, QLGATE_TABLES, ROUTE_PATHS  # noqa: E402

WORKLOADS = {"a": "(a) select *", "c": "(c) 1+10 fan-out"}
# the link with an ms argument passed on to the details operation
LINK_FROM = ("details: Item", 'sourceArgs: { id: "{root.id}" }')
LINK_TO = ("details(ms: Int): Item", 'sourceArgs: { id: "{root.id}", ms: "{args.ms}" }')


def load_workloads(peer_src: Path):
    spec = importlib.util.spec_from_file_location("mesh_peer_workloads", peer_src / "workloads.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def requests_of(wl) -> dict[tuple[str, str, str], str]:
    """(mode, workload, server) -> request path; unique ones carry MARK."""
    ql_unique = {
        "a": wl.QL["a"].replace('q = "x"', f'q = "x{MARK}"'),
        "c": wl.QL["c"].replace('q = "x")', f'q = "x{MARK}") and ms = "-{MARK}"'),
    }
    gql_unique = {
        "a": wl.GQL["a"].replace('q: "x"', f'q: "x{MARK}"'),
        "c": wl.GQL["c"].replace('q: "x"', f'q: "x{MARK}"').replace("details {", f"details(ms: -{MARK}) {{"),
    }
    gql_shared = {"a": wl.GQL["a"], "c": wl.GQL["c"].replace("details {", "details(ms: 0) {")}
    for key in WORKLOADS:
        assert MARK in ql_unique[key] and MARK in gql_unique[key], key
        if key == "c":
            assert f"-{MARK}" in ql_unique[key] and f"-{MARK}" in gql_unique[key]

    def q(script: str) -> str:
        return "/q?" + urllib.parse.urlencode({"s": script}, quote_via=urllib.parse.quote)

    def g(query: str) -> str:
        return "/graphql?" + urllib.parse.urlencode({"query": query}, quote_via=urllib.parse.quote)

    paths = {}
    for key in WORKLOADS:
        paths[("unique", key, "qlgate")] = q(ql_unique[key])
        paths[("unique", key, "mesh")] = g(gql_unique[key])
        paths[("shared", key, "qlgate")] = q(wl.QL[key])
        paths[("shared", key, "mesh")] = g(gql_shared[key])
    return paths


def install_peer(peer_src: Path, peer_dir: Path) -> None:
    print(f"peer: setup.sh {peer_dir} (npm ci on the first call, ~90 s) ...", flush=True)
    started = time.monotonic()
    subprocess.run(["bash", str(peer_src / "setup.sh"), str(peer_dir)], check=True, capture_output=True, text=True)
    config = peer_dir / "mesh.config.mjs"
    text = (peer_src / "mesh.config.mjs").read_text()
    for old, new in zip(LINK_FROM, LINK_TO):
        if text.count(old) != 1:
            raise SystemExit(f"the peer's mesh.config.mjs no longer has {old!r} once: cannot add details(ms:)")
        text = text.replace(old, new)
    config.write_text(text)
    print(f"peer: ready in {time.monotonic() - started:.1f} s; link rewritten to details(ms: Int)", flush=True)


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=4, help="seconds of load per cell and round")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of load per cell before the first round")
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--shared", action="store_true", help="also the repeated-request cells, labelled shared")
    parser.add_argument("--mesh-jit", action="store_true", help="MESH_JIT=1: Hive Gateway executes with graphql-jit")
    parser.add_argument("--peer-src", type=Path, default=ROOT.parent / "shared" / "peers" / "graphql-mesh")
    parser.add_argument("--peer-dir", type=Path, help="an installed peer to reuse (or a directory to install it in)")
    args = parser.parse_args()
    print(
        f"command: python bench/vs_mesh.py --rounds {args.rounds} --seconds {args.seconds} --warmup {args.warmup} "
        f"--concurrency {args.concurrency} --peer-src {args.peer_src}"
        + (" --shared" if args.shared else "")
        + (" --mesh-jit" if args.mesh_jit else "")
        + (f" --peer-dir {args.peer_dir}" if args.peer_dir else ""),
        flush=True,
    )
    machine_with_node()
    peer_src = args.peer_src.resolve()
    if not (peer_src / "setup.sh").is_file():  # outside material: not in a clone alone
        raise SystemExit(f"skipped: the GraphQL Mesh peer (../shared/peers/graphql-mesh) is not at {peer_src}; give --peer-src DIR")
    work = Path(tempfile.mkdtemp(prefix="qlgate-vs-mesh-"))
    peer_dir = args.peer_dir.resolve() if args.peer_dir else work / "peer"
    procs: list[subprocess.Popen] = []
    try:
        install_peer(peer_src, peer_dir)
        run(args, load_workloads(peer_src), peer_src, peer_dir, work, procs)
    finally:
        stop_all(procs)
        shutil.rmtree(work, ignore_errors=True)


def run(args, wl, peer_src: Path, peer_dir: Path, work: Path, procs: list[subprocess.Popen]) -> None:
    upstream = subprocess.Popen([sys.executable, str(HERE / "upstream.py")], stdout=subprocess.PIPE, text=True)
    procs.append(upstream)
    up_port = int(upstream.stdout.readline())
    base = f"http://127.0.0.1:{up_port}"
    wait(f"{base}/search?q=x")

    mesh_port = free_port()
    env = dict(os.environ, MESH_JIT="1" if args.mesh_jit else "0", MESH_DEDUPE="0")
    mesh = subprocess.Popen(
        ["bash", str(peer_src / "serve.sh"), str(peer_dir), str(mesh_port), str(up_port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    procs.append(mesh)

    (work / "tables").mkdir()
    (work / "routes").mkdir()
    (work / "tables" / "bench.ql").write_text(QLGATE_TABLES)
    for n, route in enumerate(QLGATE_ROUTES.splitlines()):
        (work / "routes" / f"bench{n}.ql").write_text(route + "\n")
    (work / "config.json").write_text(f'{{"base": "{base}"}}')
    qlgate_port = free_port()
    qlgate = subprocess.Popen(
        serve_command(qlgate_port, work / "config.json", tables=work / "tables", routes=work / "routes"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs.append(qlgate)
    wait(f"http://127.0.0.1:{qlgate_port}/health", timeout=60)
    paths = requests_of(wl)
    mesh_probe = f"http://127.0.0.1:{mesh_port}" + paths[("shared", "a", "mesh")]
    wait(mesh_probe, timeout=120)  # serve.sh composes the supergraph first
    servers = {"qlgate": (qlgate_port, qlgate.pid), "mesh": (mesh_port, mesh.pid)}

    print("\nsame rows check (the peer's workloads.rows, numbers as floats):", flush=True)
    for key, name in WORKLOADS.items():
        for mode in ("shared", "unique"):
            rows = {
                server: wl.rows(
                    key, server, fetch(f"http://127.0.0.1:{port}" + paths[(mode, key, server)].replace(MARK, "7"))
                )
                for server, (port, _) in servers.items()
            }
            same = rows["qlgate"] == rows["mesh"] and len(rows["qlgate"]) == 10
            print(f"  {name:18} {mode:6} {'same rows' if same else 'DIFFERENT rows'} ({len(rows['qlgate'])})")
            if not same:
                print(f"    qlgate: {str(rows['qlgate'])[:300]}\n    mesh:   {str(rows['mesh'])[:300]}")

    modes = ["unique"] + (["shared"] if args.shared else [])
    cells = [
        (mode, key, server, f"http://127.0.0.1:{servers[server][0]}", paths[(mode, key, server)], servers[server][1])
        for mode in modes
        for key in WORKLOADS
        for server in servers
    ]
    for key in WORKLOADS:  # for reference: qlgate's named routes, compiled once, each request its own
        cells.append(("unique", key, "route", f"http://127.0.0.1:{qlgate_port}", ROUTE_PATHS[key], qlgate.pid))
    load = Load(work, Numbers(), args.concurrency, base, [qlgate.pid, mesh.pid])
    for _, _, _, origin, path, pid in cells:  # warm up: connections, V8's JIT, caches
        load.run(origin, path, pid, args.warmup)

    results: dict[tuple, list[dict]] = {cell[:3]: [] for cell in cells}
    print(
        f"\n{args.rounds} rounds x {args.seconds} s per cell, wrk -t1 -c{args.concurrency}, upstream bench/upstream.py, "
        f"Hive Gateway jit {'on' if args.mesh_jit else 'off'}, odd rounds in reverse order; "
        "calls = upstream calls per answered request:",
        flush=True,
    )
    for round_no in range(args.rounds):
        order = cells if round_no % 2 == 0 else list(reversed(cells))
        for mode, key, server, origin, path, pid in order:
            r = load.run(origin, path, pid, args.seconds)
            results[(mode, key, server)].append(r)
            print(
                f"  round {round_no + 1}  {mode:6} {WORKLOADS[key]:18} {server:7} {r['rps']:8.0f} req/s"
                f"  {r['cpu_us']:7.0f} µs CPU/req  calls {fmt_calls(r['calls'])}"
                + (f"  ERRORS {r['errors']}" if r["errors"] else ""),
                flush=True,
            )

    def med(mode: str, key: str, server: str, field: str) -> float:
        return statistics.median(r[field] for r in results[(mode, key, server)])

    def ratios(mode: str, key: str, field: str, invert: bool = False) -> list[float]:
        pairs = zip(results[(mode, key, "qlgate")], results[(mode, key, "mesh")])
        return [(m[field] / q[field]) if invert else (q[field] / m[field]) for q, m in pairs]

    for mode in modes:
        label = (
            "EVERY REQUEST ITS OWN (unique search terms and details ms; nothing to share)"
            if mode == "unique"
            else "SHARED: the same request over and over (qlgate shares identical upstream GETs in flight)"
        )
        print(f"\n{label} — medians over {args.rounds} rounds, ratios per round: median (min–max):", flush=True)
        print(
            f"  {'workload':18} {'qlgate req/s':>12} {'mesh req/s':>11} {'rps x':>18}   "
            f"{'qlgate µs/req':>13} {'mesh µs/req':>11} {'CPU x':>18}   {'calls qlgate':>12} {'mesh':>6}",
            flush=True,
        )
        for key, name in WORKLOADS.items():
            errors = sum(r["errors"] for server in servers for r in results[(mode, key, server)])
            print(
                f"  {name:18} {med(mode, key, 'qlgate', 'rps'):12.0f} {med(mode, key, 'mesh', 'rps'):11.0f} "
                f"{median_spread(ratios(mode, key, 'rps')):>18}   "
                f"{med(mode, key, 'qlgate', 'cpu_us'):13.0f} {med(mode, key, 'mesh', 'cpu_us'):11.0f} "
                f"{median_spread(ratios(mode, key, 'cpu_us', invert=True)):>18}   "
                f"{fmt_calls(med(mode, key, 'qlgate', 'calls')):>12} {fmt_calls(med(mode, key, 'mesh', 'calls')):>6}"
                + (f"   ERRORS {errors}" if errors else ""),
                flush=True,
            )
        print("  (rps x = qlgate req/s / mesh req/s; CPU x = mesh CPU per request / qlgate CPU per request)")
        for key in WORKLOADS if mode == "unique" else ():
            route = results[(mode, key, "route")]
            mesh_runs = results[(mode, key, "mesh")]
            print(
                f"  {WORKLOADS[key]} as a qlgate route (compiled once, each request its own): "
                f"{med(mode, key, 'route', 'rps'):.0f} req/s, {med(mode, key, 'route', 'cpu_us'):.0f} µs CPU/req, "
                f"calls {fmt_calls(med(mode, key, 'route', 'calls'))}; against mesh: req/s "
                f"{median_spread([r['rps'] / m['rps'] for r, m in zip(route, mesh_runs)])}, CPU "
                f"{median_spread([m['cpu_us'] / r['cpu_us'] for r, m in zip(route, mesh_runs)])}",
                flush=True,
            )


if __name__ == "__main__":
    main()
