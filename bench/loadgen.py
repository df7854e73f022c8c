"""A bounded keep-alive load generator: ``concurrency`` clients loop on one URL
for ``seconds`` and report req/s and latency percentiles as JSON.

    python bench/loadgen.py URL --concurrency 50 --seconds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

import aiohttp


async def load(url: str, concurrency: int, seconds: float, headers: dict[str, str] | None = None) -> dict:
    latencies: list[float] = []
    errors = 0
    stop_at = time.perf_counter() + seconds
    connector = aiohttp.TCPConnector(limit=concurrency, force_close=False)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def client() -> None:
            nonlocal errors
            while time.perf_counter() < stop_at:
                start = time.perf_counter()
                try:
                    async with session.get(url, headers=headers) as resp:
                        await resp.read()
                        if resp.status != 200:
                            errors += 1
                except aiohttp.ClientError:
                    errors += 1
                latencies.append(time.perf_counter() - start)

        started = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    latencies.sort()
    pick = lambda p: latencies[min(len(latencies) - 1, int(len(latencies) * p))] * 1000  # noqa: E731
    return {
        "requests": len(latencies),
        "errors": errors,
        "rps": round(len(latencies) / elapsed),
        "p50_ms": round(pick(0.50), 2),
        "p99_ms": round(pick(0.99), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("-H", "--header", action="append", default=[], metavar="'NAME: VALUE'")
    args = parser.parse_args()
    headers = dict(h.split(":", 1) for h in args.header)
    headers = {k.strip(): v.strip() for k, v in headers.items()}
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(json.dumps(asyncio.run(load(args.url, args.concurrency, args.seconds, headers))))


if __name__ == "__main__":
    sys.exit(main())
