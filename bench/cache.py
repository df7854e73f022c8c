"""Response cache benchmark (issue 17): the same mix of repeated searches through one
gateway process with the cache off, the in-process memory cache and Redis — the
upstream calls each makes (counted at the upstream), req/s and p50/p99 latency.

    python bench/cache.py [--requests 1000] [--concurrency 20] [--keywords 50] [--delay-ms 5] [--seed 17]

The mix: ``--requests`` GETs of a route, ``/bench/search?q=<keyword>``, whose keyword
is drawn (seeded) from ``--keywords`` values with Zipf-like weights (1/rank), so a
few are asked often and many rarely; ``--concurrency`` requests in flight from an
aiohttp client. The route selects three fields of ten ~600-byte listings from a
loopback upstream (a process of its own) that answers after ``--delay-ms``, like a
partner API, and counts its calls. The table says ``expires 60``: the fewest calls
the mix can make is the number of distinct keywords in it. Each configuration gets
a fresh gateway (``python3 -m qlgate serve``, one process) and, for Redis, a fresh
``redis-server`` on a free port (skipped with a note when it is not installed).
Even with the cache off, identical requests in flight at once share one call
(single flight), so "off" makes fewer calls than requests.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
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
sys.path.insert(0, str(ROOT))  # tests.servers: the Redis launcher

from gateway import free_port, serve_command, stop_all  # noqa: E402

from tests.servers.redis import LocalRedis, RedisUnavailable  # noqa: E402

TABLE = (
    "create table bench.search on select get from \"{config.base}/search?q={q}&ms={config.delay}\" resultset 'items'"
    " expires 60\n"
)
ROUTE = (
    'return select id, title, price.value from bench.search where q = "{q}" '
    "via route '/bench/search?q={^q}' using method get;\n"
)


# ------------------------------------------------------------------ the upstream (its own process)


def serve_upstream() -> None:
    """``/search?q=…&ms=N``: ten listings naming the keyword, after N ms; ``/count``: the
    searches answered so far. Prints its port on stdout."""
    from aiohttp import web

    searches = [0]

    async def search(request: web.Request) -> web.Response:
        searches[0] += 1
        await asyncio.sleep(int(request.query.get("ms", "0")) / 1000)
        q = request.query.get("q", "")
        items = [
            {
                "id": f"{q}-{i}",
                "title": f"{q}: listing number {i} with a reasonably long title for realism",
                "price": {"value": 10 + i * 1.25, "currency": "USD"},
                "seller": {"name": f"seller{i}", "score": 100 + i},
                "description": "lorem ipsum dolor sit amet " * 12,
            }
            for i in range(10)
        ]
        return web.json_response({"items": items})

    async def count(request: web.Request) -> web.Response:
        return web.json_response({"searches": searches[0]})

    async def main() -> None:
        app = web.Application()
        app.router.add_get("/search", search)
        app.router.add_get("/count", count)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        print(runner.addresses[0][1], flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())


def upstream_calls(base: str) -> int:
    with urllib.request.urlopen(f"{base}/count", timeout=5) as answer:
        return json.load(answer)["searches"]


# ------------------------------------------------------------------ the mix and the load


def mix(requests: int, keywords: int, seed: int) -> list[str]:
    """``requests`` keywords drawn from ``keywords`` values, weight 1/rank."""
    names = [f"kw{rank:02d}" for rank in range(1, keywords + 1)]
    weights = [1 / rank for rank in range(1, keywords + 1)]
    return random.Random(seed).choices(names, weights, k=requests)


async def load(base: str, words: list[str], concurrency: int) -> dict:
    """Every request of the mix, ``concurrency`` at a time over keep-alive connections:
    req/s over the whole run, p50/p99 of each request's latency, the non-200s."""
    import aiohttp

    latencies: list[float] = []
    errors = [0]
    first_error: list[str] = []
    queue = collections.deque(words)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency), timeout=timeout) as session:

        async def client() -> None:
            while queue:
                word = queue.popleft()
                began = time.perf_counter()
                try:
                    async with session.get(f"{base}/bench/search", params={"q": word}) as resp:
                        body = await resp.read()
                        ok = resp.status == 200
                        failure = f"{resp.status} {body[:200].decode(errors='replace')}"
                except (aiohttp.ClientError, TimeoutError) as e:
                    ok, failure = False, repr(e)
                latencies.append(time.perf_counter() - began)
                if not ok:
                    errors[0] += 1
                    first_error.append(failure)

        began = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(concurrency)))
        elapsed = time.perf_counter() - began
    latencies.sort()

    def percentile(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000

    return {
        "rps": len(latencies) / elapsed,
        "p50_ms": percentile(50),
        "p99_ms": percentile(99),
        "errors": errors[0],
        "first_error": first_error[0] if first_error else "",
        "latencies": latencies,
    }


def summary(rounds: list[dict]) -> str:
    """The median of each figure over the rounds, with their range."""

    def figure(key: str, form: str) -> str:
        values = sorted(r[key] for r in rounds)
        median = values[len(values) // 2]
        spread = f" ({values[0]:{form}}–{values[-1]:{form}})" if len(values) > 1 and values[0] != values[-1] else ""
        return f"{median:{form}}{spread}"

    errors = sum(r["errors"] for r in rounds)
    return (
        f"upstream calls {figure('calls', 'd')} per {len(rounds[0]['latencies'])} requests   "
        f"{figure('rps', '.0f')} req/s   p50 {figure('p50_ms', '.2f')} ms   p99 {figure('p99_ms', '.2f')} ms"
        + (f"   ERRORS {errors}, the first: {next(r['first_error'] for r in rounds if r['errors'])}" if errors else "")
    )


# ------------------------------------------------------------------ processes


def start_redis(directory: Path) -> tuple[LocalRedis | None, str]:
    try:
        server = LocalRedis(directory).start()
    except RedisUnavailable as error:
        return None, f"{error}: Redis skipped"
    return server, server.url


def start_gateway(work: Path, name: str, config: dict) -> tuple[subprocess.Popen, str]:
    """A gateway answering /health from its own pid: a free port may be taken by another
    process between ``free_port()`` and the bind (then the gateway exits: try another)."""
    (work / f"{name}.json").write_text(json.dumps(config))
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    for _ in range(3):
        port = free_port()
        proc = subprocess.Popen(
            serve_command(
                port,
                work / f"{name}.json",
                tables=work / "tables",
                routes=work / "routes",
                extra=("--disable-console",),
            ),
            cwd=work,
            env={**os.environ, "PYTHONPATH": path, "QLGATE_JOBS_DATABASE": str(work / f"{name}-jobs.sqlite")},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        gateway = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{gateway}/health", timeout=1) as answer:
                    if json.load(answer).get("pid") == proc.pid:
                        return proc, gateway
            except OSError:
                pass
            time.sleep(0.1)
        stop_all([proc])
    raise SystemExit(f"the {name} gateway did not start")


# ------------------------------------------------------------------ main


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--keywords", type=int, default=50)
    parser.add_argument("--delay-ms", type=int, default=5)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument(
        "--rounds", type=int, default=3, help="runs of the mix per configuration, each on a fresh gateway"
    )
    parser.add_argument("--upstream", action="store_true", help=argparse.SUPPRESS)  # run as the upstream
    args = parser.parse_args()
    if args.upstream:
        serve_upstream()
        return
    print(
        f"command: python bench/cache.py --requests {args.requests} --concurrency {args.concurrency} "
        f"--keywords {args.keywords} --delay-ms {args.delay_ms} --seed {args.seed} --rounds {args.rounds}",
        flush=True,
    )
    words = mix(args.requests, args.keywords, args.seed)
    counts = collections.Counter(words).most_common()
    top = ", ".join(f"{w} {n}" for w, n in counts[:3])
    print(
        f"\nthe mix: {args.requests} GET /bench/search?q=… over {len(counts)} distinct keywords of {args.keywords} "
        f"(weights 1/rank, seed {args.seed}; most asked: {top}; asked once: {sum(1 for _, n in counts if n == 1)}), "
        f"concurrency {args.concurrency}, upstream answers after {args.delay_ms} ms, one gateway process each; "
        f"table expires 60: the fewest upstream calls is {len(counts)}",
        flush=True,
    )
    work = Path(tempfile.mkdtemp(prefix="qlgate-bench-cache-"))
    (work / "tables").mkdir()
    (work / "routes").mkdir()
    (work / "tables" / "bench.ql").write_text(TABLE)
    (work / "routes" / "search.ql").write_text(ROUTE)
    procs: list[subprocess.Popen] = []
    redis: LocalRedis | None = None
    try:
        upstream = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--upstream"], stdout=subprocess.PIPE, text=True
        )
        procs.append(upstream)
        base = f"http://127.0.0.1:{int(upstream.stdout.readline())}"
        redis, redis_url = start_redis(work / "redis")
        configs = [("cache off", {"backend": "none"}), ("memory", {"backend": "memory"})]
        if redis is not None:
            configs.append(("redis", {"url": redis_url}))
        print(
            f"\neach configuration: {args.rounds} round(s) of the mix, each on a fresh gateway; each figure is the "
            "median of the rounds (min–max), load from an aiohttp client in this process:",
            flush=True,
        )
        for name, cache in configs:
            rounds = []
            for round_ in range(args.rounds):
                # a fresh gateway each round (an empty memory cache), a prefix of its own in Redis
                config = {"base": base, "delay": args.delay_ms, "cache": {**cache, "prefix": f"bench:{round_}:"}}
                proc, gateway = start_gateway(work, f"{name.replace(' ', '-')}-{round_}", config)
                procs.append(proc)
                try:
                    # warm up outside the mix: connections, the route, the first compile
                    asyncio.run(load(gateway, ["warm-up"] * 40, args.concurrency))
                    before = upstream_calls(base)
                    r = asyncio.run(load(gateway, words, args.concurrency))
                    r["calls"] = upstream_calls(base) - before
                    rounds.append(r)
                finally:
                    stop_all([proc])
                    procs.remove(proc)
            print(f"  {name:10} {summary(rounds)}", flush=True)
        if redis is None:
            print(f"  {'redis':10} {redis_url}", flush=True)
    finally:
        stop_all(procs[::-1])
        if redis is not None:
            redis.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
