"""Big answers are decoded off the event loop (``qlgate/tables/response.py``): a
request whose fan-out brings back many megabytes keeps the gateway answering
others meanwhile. Before, each answer was decoded on the loop as it came, and
fifty answers of 9 MB held it (and ``/health``) for seconds."""

from __future__ import annotations

import asyncio
import json
import time

import orjson
import pytest

from qlgate.tables import response
from tests.conftest import served

COUNT = 24
TABLES = {"big.ql": "create table big on select get from '{config.base}/big?n={n}'"}


def _answer() -> bytes:
    rows = [
        {"id": i, "title": f"item {i} " + "x" * 40, "price": {"value": "1.00", "currency": "USD"}}
        for i in range(40_000)
    ]
    return json.dumps({"rows": rows}).encode()  # about 4 MB


@pytest.mark.large
async def test_health_answers_while_big_answers_are_decoded(upstream, engine_for, monkeypatch):
    # a timing test: the autouse check of shared bodies snapshots every decoded tree on the loop
    monkeypatch.setattr(response, "shared_bodies", None)
    body = _answer()
    upstream.reply("GET", "/big", body=body)
    decodes = []
    for _ in range(3):  # what one answer holds the GIL for, on this machine and its load now
        started = time.perf_counter()
        orjson.loads(body)
        decodes.append(time.perf_counter() - started)
    one_decode = max(decodes)
    # 24 answers of 5 MB: past the default answer budget of a request (gateway.maxRequestBytes)
    engine = engine_for(TABLES, config={"gateway": {"maxRequestBytes": 512 * 1024 * 1024}})
    values = ", ".join(f'"{n}"' for n in range(COUNT))
    script = f"r = select rows[0].id from big where n in ({values}); return r;"
    async with served(engine) as session:
        async with session.get("/health") as resp:
            assert resp.status == 200
        done = asyncio.Event()
        latencies: list[float] = []

        async def probe() -> None:
            while not done.is_set():
                began = time.perf_counter()
                async with session.get("/health") as resp:
                    assert resp.status == 200
                latencies.append(time.perf_counter() - began)
                await asyncio.sleep(0.005)

        prober = asyncio.create_task(probe())
        async with session.post("/q", data=script, headers={"Content-Type": "text/plain"}) as resp:
            assert resp.status == 200, await resp.text()
            assert len(await resp.json()) == COUNT
        done.set()
        await prober
    assert len(upstream.requests) == COUNT and len(latencies) >= 5
    # on the loop, a probe waits for every answer that arrived before it (COUNT × one_decode
    # and more); off it, for about one decode's hold of the GIL, and a scheduling turn or two
    assert max(latencies) < max(0.1, 4 * one_decode + 0.05), (max(latencies), one_decode)
