"""A gateway request's budget of upstream answer bytes (``gateway.maxRequestBytes``):
one request whose fan-out brings back more than its budget is stopped while it
reads, with a typed 400; the next request has a budget of its own. Before, one
``query``-scope request fanning out to 50 answers of 9 MB took the gateway's
memory to 1.6 GB."""

from __future__ import annotations

from tests.conftest import served

TABLES = {"big.ql": "create table big on select get from '{config.base}/big?n={n}'"}


def _script(count: int) -> str:
    values = ", ".join(f'"{n}"' for n in range(count))
    return f"return select n from big where n in ({values});"


async def test_a_fan_out_over_the_budget_is_a_400_and_the_next_request_has_its_own(upstream, engine_for):
    upstream.reply("GET", "/big", json_body={"n": 1, "pad": "x" * 30_000})  # ~30 KB each
    engine = engine_for(TABLES, config={"gateway": {"maxRequestBytes": 100_000}})
    async with served(engine) as session:
        async with session.post("/q", data=_script(3), headers={"Content-Type": "text/plain"}) as resp:
            assert resp.status == 200, await resp.text()  # 3 × 30 KB: within 100 KB
        async with session.post("/q", data=_script(8), headers={"Content-Type": "text/plain"}) as resp:
            body = await resp.json()
            assert resp.status == 400 and body["type"] == "RequestBytesExceeded", body
            assert "100,000 bytes (gateway.maxRequestBytes)" in body["err"]
        async with session.post("/q", data=_script(3), headers={"Content-Type": "text/plain"}) as resp:
            assert resp.status == 200  # a budget per request, not per process
        async with session.get("/health") as resp:
            assert resp.status == 200


async def test_answers_shared_from_the_cache_count_against_the_budget_too(upstream, engine_for):
    upstream.reply("GET", "/big", json_body={"n": 1, "pad": "x" * 30_000})
    cached = {"big.ql": "create table big on select get from '{config.base}/big?n={n}' expires 60"}
    engine = engine_for(cached, config={"gateway": {"maxRequestBytes": 100_000}})
    async with served(engine) as session:
        async with session.post("/q", data=_script(3), headers={"Content-Type": "text/plain"}) as resp:
            assert resp.status == 200  # three answers, now in the cache
        # three from the cache and one from the wire: 30 KB read off the wire, 120 KB held
        async with session.post("/q", data=_script(4), headers={"Content-Type": "text/plain"}) as resp:
            assert resp.status == 400 and (await resp.json())["type"] == "RequestBytesExceeded"
        assert len(upstream.requests) == 4
