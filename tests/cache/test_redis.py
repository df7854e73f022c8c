"""The Redis backend shared by engines: one upstream call for all, expiry,
Redis killed mid-test, the fetch lock across processes."""

import asyncio
import logging

from qlgate.cache.entry import Entry
from qlgate.cache.redis_backend import RedisBackend
from tests.conftest import run

TABLES = {
    "c.ql": "create table c.item on select get from '{config.base}/item?id={id}' expires 60",
    "s.ql": "create table s.item on select get from '{config.base}/item?id={id}' expires 1",
}
SCRIPT = 'return select * from {table} where id = "7";'


def calls(upstream):
    return sum(1 for r in upstream.requests if r.path == "/item")


async def test_two_engines_sharing_redis_make_one_call(upstream, engine_for, redis_server):
    upstream.reply("GET", "/item", json_body={"id": 7})
    config = {"cache": {"url": redis_server.url}}
    first, second = engine_for(TABLES, config=config), engine_for(TABLES, config=config)
    assert await run(first, SCRIPT.format(table="c.item")) == {"id": 7}
    result = await second.execute(SCRIPT.format(table="c.item"))
    assert result.value == {"id": 7} and result.diagnostics.calls[0].source == "cache"
    assert calls(upstream) == 1


async def test_concurrent_engines_share_one_call_through_the_lock(upstream, engine_for, redis_server):
    upstream.reply("GET", "/item", json_body={"id": 7}, delay=0.3)
    config = {"cache": {"url": redis_server.url}}
    engines = [engine_for(TABLES, config=config) for _ in range(4)]
    results = await asyncio.gather(*(e.execute(SCRIPT.format(table="c.item")) for e in engines for _ in range(5)))
    assert all(r.value == {"id": 7} for r in results)
    assert calls(upstream) == 1


async def test_expiry_in_redis(upstream, engine_for, redis_server):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES, config={"cache": {"url": redis_server.url}})
    await run(engine, SCRIPT.format(table="s.item"))
    await run(engine, SCRIPT.format(table="s.item"))
    assert calls(upstream) == 1
    await asyncio.sleep(1.2)
    await run(engine, SCRIPT.format(table="s.item"))
    assert calls(upstream) == 2


async def test_redis_killed_mid_test_still_answers(upstream, engine_for, redis_server, caplog):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES, config={"cache": {"url": redis_server.url}})
    await run(engine, SCRIPT.format(table="c.item"))
    redis_server.stop()
    with caplog.at_level(logging.WARNING, logger="qlgate.cache"):
        for _ in range(3):
            assert await run(engine, SCRIPT.format(table="c.item")) == {"id": 7}
    assert calls(upstream) == 4
    warnings = [r for r in caplog.records if r.name == "qlgate.cache"]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING  # rate-limited


async def test_entry_round_trip(redis_server):
    backend = RedisBackend(redis_server.url, "t:")
    entry = Entry(200, (("content-type", "application/json"),), b'{"a":1}', "http://x/y", 1.0, 2.0)
    await backend.set("k", entry, 5)
    assert await backend.get("k") == entry
    token = await backend.lock("k", 1000)
    assert token and await backend.lock("k", 1000) is None
    await backend.unlock("k", token)
    assert await backend.lock("k", 1000)
    await backend.close()
