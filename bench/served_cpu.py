"""CPU per served ``select *`` (issue 29): qlgate against the lean floor, in one interleaved run.

    python bench/served_cpu.py [--rounds 5] [--seconds 4] [--concurrency 50] [--profile SECONDS]

Every request its own (``q = "x<N>"``, numbered by a wrk Lua script, ``bench/unique.py``), so each
served request is one upstream GET on every side (printed: upstream calls per answered request).
Cells, each one process over the same loopback upstream (``bench/upstream.py``):

  qlgate      ``qlgate serve --workers 1``: ``/q?s=select * from finditems where q = "x<N>"``
              (the ~6 KB answer decoded, selected and encoded again; a script of its own per
              request, so compiled per request too, as a caller's new script is)
  route       the same qlgate process, a named route running the same select (``/bench/items?q=x<N>``):
              compiled once at start-up, so what a served request costs without a compile
  lean        ``bench/lean_proxy.py``: asyncio Protocol + httptools both sides, keep-alive pool
  aiohttp     ``bench/proxy.py``: one aiohttp hop (the floor of ``bench/vs_qlio.py``), for reference

For each: CPU µs per request of the serving process (utime + stime from ``/proc/PID/stat``) and
req/s, medians over ``--rounds`` (odd rounds in reverse order) and the per-round ratio
qlgate CPU / lean CPU as median (min–max). Target: ≤ 3×. ``--profile S`` then samples qlgate
with ``py-spy record --nonblocking`` for S seconds under the same load and prints the top
functions (py-spy must be installed).
"""

from __future__ import annotations

import argparse
import collections
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gateway import free_port, serve_command, stop_all, wait  # noqa: E402
from unique import MARK, Load, Numbers, fmt_calls, lua, median_spread, wrk  # noqa: E402

TABLES = "create table finditems on select get from \"{config.base}/search?q={q}&ms=0\" resultset 'items'\n"
SELECT = "/q?" + urllib.parse.urlencode({"s": f'select * from finditems where q = "x{MARK}"'})
ROUTE = "return select * from finditems where q = '{q}' via route '/bench/items?q={q}' using method get;\n"


def top_functions(raw: Path, count: int = 25) -> list[str]:
    """py-spy's raw (collapsed) stacks: the functions most often on the stack, and most often on top."""
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        samples = int(n)
        total += samples
        frames = [f.split(":")[0] + ")" if " (" in f else f for f in stack.split(";")]
        for frame in set(frames):
            inclusive[frame] += samples
        own[frames[-1]] += samples
    lines = [f"{total} samples; on the stack:"]
    lines += [f"  {v / total:6.1%}  {k}" for k, v in inclusive.most_common(count)]
    lines += ["on top (own time):"]
    lines += [f"  {v / total:6.1%}  {k}" for k, v in own.most_common(count // 2)]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--profile", type=int, default=0, help="then py-spy qlgate for this many seconds")
    args = parser.parse_args()
    print(
        f"command: python bench/served_cpu.py --rounds {args.rounds} --seconds {args.seconds} "
        f"--concurrency {args.concurrency}" + (f" --profile {args.profile}" if args.profile else ""),
        flush=True,
    )
    if not shutil.which("wrk"):
        raise SystemExit("needs wrk on PATH")
    procs: list[subprocess.Popen] = []
    work = Path(tempfile.mkdtemp(prefix="qlgate-served-cpu-"))
    try:
        run(args, work, procs)
    finally:
        stop_all(procs)
        shutil.rmtree(work, ignore_errors=True)


def run(args, work: Path, procs: list[subprocess.Popen]) -> None:
    upstream = subprocess.Popen([sys.executable, str(HERE / "upstream.py")], stdout=subprocess.PIPE, text=True)
    procs.append(upstream)
    base = f"http://127.0.0.1:{int(upstream.stdout.readline())}"
    wait(f"{base}/search?q=x")
    (work / "tables").mkdir()
    (work / "routes").mkdir()
    (work / "tables" / "bench.ql").write_text(TABLES)
    (work / "routes" / "items.ql").write_text(ROUTE)
    (work / "config.json").write_text(json.dumps({"base": base}))
    ports = {name: free_port() for name in ("qlgate", "lean", "aiohttp")}
    commands = {
        "qlgate": serve_command(ports["qlgate"], work / "config.json", tables=work / "tables", routes=work / "routes"),
        "lean": [sys.executable, str(HERE / "lean_proxy.py"), str(ports["lean"]), f"{base}/search?q=x"],
        "aiohttp": [sys.executable, str(HERE / "proxy.py"), str(ports["aiohttp"]), f"{base}/search?q=x"],
    }
    pids = {}
    for name, command in commands.items():
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(proc)
        pids[name] = proc.pid
    ports["route"], pids["route"] = ports["qlgate"], pids["qlgate"]
    paths = {"qlgate": SELECT, "route": f"/bench/items?q=x{MARK}", "lean": f"/?q=x{MARK}", "aiohttp": f"/?q=x{MARK}"}
    for name, port in ports.items():
        wait(f"http://127.0.0.1:{port}" + paths[name].replace(MARK, "0"), timeout=60)
    origin = {name: f"http://127.0.0.1:{port}" for name, port in ports.items()}

    load = Load(work, Numbers(), args.concurrency, base, list(set(pids.values())))
    for name in ports:  # warm up
        load.run(origin[name], paths[name], pids[name], 1)
    results: dict[str, list[dict]] = {name: [] for name in ports}
    print(
        f"\n{args.rounds} rounds x {args.seconds} s per cell, wrk -t1 -c{args.concurrency}, every request its own "
        '(q = "x<N>"), odd rounds in reverse order:',
        flush=True,
    )
    names = ["qlgate", "route", "lean", "aiohttp"]
    for round_no in range(args.rounds):
        for name in names if round_no % 2 == 0 else reversed(names):
            r = load.run(origin[name], paths[name], pids[name], args.seconds)
            results[name].append(r)
            print(
                f"  round {round_no + 1}  {name:8} {r['rps']:7.0f} req/s  {r['cpu_us']:6.0f} µs CPU/req  "
                f"calls {fmt_calls(r['calls'])}" + (f"  ERRORS {r['errors']}" if r["errors"] else ""),
                flush=True,
            )

    def med(name: str, field: str) -> float:
        return statistics.median(r[field] for r in results[name])

    def ratio(a: str, b: str, field: str) -> list[float]:
        return [x[field] / y[field] for x, y in zip(results[a], results[b])]

    print(f"\nmedians over {args.rounds} rounds (ratios per round: median (min–max)):")
    for name in names:
        print(
            f"  {name:8} {med(name, 'rps'):7.0f} req/s  {med(name, 'cpu_us'):6.0f} µs CPU/req  "
            f"calls {fmt_calls(med(name, 'calls'))}"
        )
    print(
        f"  CPU per served select *: qlgate / lean proxy = {median_spread(ratio('qlgate', 'lean', 'cpu_us'))}  "
        "(target ≤ 3)\n"
        f"                           qlgate route / lean proxy = {median_spread(ratio('route', 'lean', 'cpu_us'))}  "
        "(no compile per request)\n"
        f"                           qlgate / aiohttp proxy = {median_spread(ratio('qlgate', 'aiohttp', 'cpu_us'))}\n"
        f"                           aiohttp / lean = {median_spread(ratio('aiohttp', 'lean', 'cpu_us'))}\n"
        f"  req/s: qlgate / lean = {median_spread(ratio('qlgate', 'lean', 'rps'))}"
    )

    if args.profile:
        if not shutil.which("py-spy"):
            print("\n(no py-spy on PATH: no profile)")
            return
        for name in ("qlgate", "route"):
            raw = work / f"{name}.pyspy"
            script = work / f"profile-{name}.lua"
            script.write_text(lua(paths[name], 900_000_000 + len(name)))
            loader = threading.Thread(
                target=wrk, args=(origin[name] + "/", args.concurrency, args.profile + 2, script), daemon=True
            )
            loader.start()
            time.sleep(1)
            subprocess.run(
                ["py-spy", "record", "--nonblocking", "-p", str(pids[name]), "-d", str(args.profile), "-f", "raw",
                 "-o", str(raw)],
                capture_output=True,
                check=False,
            )  # fmt: skip
            loader.join()
            print(f"\n{name} ({paths[name][:40]}…) under the same load, py-spy record --nonblocking -d {args.profile}:")
            print("\n".join(top_functions(raw)) if raw.exists() else "  (py-spy gave nothing: ptrace allowed?)")


if __name__ == "__main__":
    main()
