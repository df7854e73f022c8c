"""Fan-out: chunked by maxNestedRequests, capped by maxFanOut, merged in order,
partial failures dropped, identical reads coalesced."""

import pytest

from qlgate.errors import FanOutLimit, UpstreamError
from tests.conftest import Reply, run

TABLE = {"t.ql": "create table item on select get from '{config.base}/i?id={id}'"}


def by_id(upstream, delay=0.0):
    upstream.handler(
        "GET",
        "/i",
        lambda req, body: Reply(
            body=('[{{"id": "{}"}}]'.format(req.query["id"])).encode(),
            delay=delay,
            status=500 if req.query["id"] == "bad" else 200,
        ),
    )


async def test_large_fan_outs_run_in_windows_not_cut(upstream, engine_for):
    by_id(upstream, delay=0.02)
    engine = engine_for(TABLE, config={"maxNestedRequests": 4})
    ids = [str(i) for i in range(10)]
    result = await run(engine, 'select id from item where id in ("{ids}")', context={"ids": ids})
    assert result == ids  # every value, in order
    assert len(upstream.requests) == 10
    assert upstream.max_in_flight == 4  # never more than the window at once


async def test_the_hard_cap_is_a_clear_error(upstream, engine_for):
    engine = engine_for(TABLE, config={"maxFanOut": 3})
    with pytest.raises(FanOutLimit, match="4 requests; the limit is 3"):
        await run(engine, 'select id from item where id in ("1", "2", "3", "4")')
    assert upstream.requests == []


async def test_partial_failures_are_dropped_total_failure_fails(upstream, engine_for):
    by_id(upstream)
    engine = engine_for(TABLE)
    assert await run(engine, 'select id from item where id in ("a", "bad", "b")') == ["a", "b"]
    with pytest.raises(UpstreamError, match="upstream answered 500"):
        await run(engine, 'select id from item where id in ("bad", "bad")')


async def test_identical_reads_of_different_statements_are_made_once(upstream, engine_for):
    by_id(upstream, delay=0.02)
    engine = engine_for(TABLE)
    result = await engine.execute(
        'a = select id from item where id = "1"; b = select * from item where id = "1";return {"a": "{a}", "b": "{b}"}'
    )
    assert result.value == {"a": ["1"], "b": [{"id": "1"}]}
    assert len(upstream.requests) == 1 and result.diagnostics.coalesced == 1
