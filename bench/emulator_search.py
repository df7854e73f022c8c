"""Emulator search latency over the generated 10,000-item catalogue (issue 16: p50 under
5 ms): a set of keyword, category and filter searches, run directly on the marketplace
(``Marketplace.find``) and over HTTP (Finding ``findItemsAdvanced`` and Browse
``item_summary/search``, one client, sequential, keep-alive).

    python bench/emulator_search.py [--rounds 50]

Prints p50 / p99 per path in milliseconds, the start-up time of the marketplace, and
the number of results of each query.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from qlgate_ebay_emulator.app import RunningSandbox
from qlgate_ebay_emulator.finding import finding_query
from qlgate_ebay_emulator.state import Marketplace

# (Finding request fields, Browse query) pairs asking the same thing
QUERIES: list[tuple[dict[str, str], dict[str, str]]] = [
    ({"keywords": "camera"}, {"q": "camera"}),
    ({"keywords": "laptop"}, {"q": "laptop"}),
    ({"keywords": "harry potter"}, {"q": "harry potter"}),
    ({"keywords": "iphone 128GB unlocked"}, {"q": "iphone 128GB unlocked"}),
    ({"keywords": "guitar", "sortOrder": "PricePlusShippingLowest"}, {"q": "guitar", "sort": "price"}),
    (
        {"keywords": "nikon", "itemFilter(0).name": "MaxPrice", "itemFilter(0).value": "500"},
        {"q": "nikon", "filter": "price:[..500],priceCurrency:USD"},
    ),
    ({"categoryId": "58058"}, {"category_ids": "58058"}),
    (
        {"categoryId": "625", "itemFilter(0).name": "Condition", "itemFilter(0).value": "1000"},
        {"category_ids": "625", "filter": "conditionIds:{1000}"},
    ),
    ({"keywords": "book", "sortOrder": "EndTimeSoonest"}, {"q": "book", "sort": "endingSoonest"}),
]


def figures(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"{name:<28} p50 {statistics.median(ms):7.3f} ms   p99 {p99:7.3f} ms   ({len(ms)} searches)"


def nested(fields: dict[str, str]) -> dict:
    out: dict = {}
    for key, value in fields.items():
        node = out
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


async def over_http(rounds: int) -> tuple[list[float], list[float]]:
    running = await RunningSandbox().start()
    auth = running.config()["auth"]["ebay.app"]
    basic = base64.b64encode(f"{auth['clientId']}:{auth['clientSecret']}".encode()).decode()
    finding, browse = [], []
    try:
        async with aiohttp.ClientSession() as session:
            async with session.post(
                auth["tokenUrl"], data={"grant_type": "client_credentials"}, headers={"Authorization": f"Basic {basic}"}
            ) as resp:
                bearer = {"Authorization": f"Bearer {(await resp.json())['access_token']}"}
            for n in range(rounds + 2):
                for fields, query in QUERIES:
                    params = {"OPERATION-NAME": "findItemsAdvanced", "SECURITY-APPNAME": "TEST-APPNAME", **fields}
                    params["paginationInput.entriesPerPage"] = "50"
                    start = time.perf_counter()
                    async with session.get(running.base + "/services/search/FindingService/v1", params=params) as resp:
                        await resp.read()
                    if n >= 2:  # two warm-up rounds
                        finding.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    async with session.get(
                        running.base + "/buy/browse/v1/item_summary/search", params=query, headers=bearer
                    ) as resp:
                        assert resp.status == 200, await resp.text()
                        await resp.read()
                    if n >= 2:
                        browse.append(time.perf_counter() - start)
    finally:
        await running.stop()
    return finding, browse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    print(f"command: python bench/emulator_search.py --rounds {args.rounds}")
    start = time.perf_counter()
    market = Marketplace()
    first = time.perf_counter() - start
    start = time.perf_counter()
    market.reset()
    again = time.perf_counter() - start
    print(f"marketplace: {len(market.items)} items; first start {first * 1000:.0f} ms, reset {again * 1000:.0f} ms")
    queries = [finding_query(nested(fields), completed=False) for fields, _ in QUERIES]
    for (fields, _), query in zip(QUERIES, queries, strict=True):
        print(f"  {len(market.find(query)):5d} results  {fields}")
    direct = []
    for _ in range(args.rounds):
        for query in queries:
            start = time.perf_counter()
            market.find(query)
            direct.append(time.perf_counter() - start)
    print(figures("direct (Marketplace.find)", direct))
    finding, browse = asyncio.run(over_http(args.rounds))
    print(figures("HTTP Finding (50/page)", finding))
    print(figures("HTTP Browse (50/page)", browse))


if __name__ == "__main__":
    main()
