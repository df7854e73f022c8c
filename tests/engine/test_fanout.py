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


def record_order(monkeypatch) -> list[str]:
    """What a fan-out does, in order: each request built, put on the wire, its answer decoded."""
    from qlgate.engine import table_call
    from qlgate.http.client import HttpClient
    from qlgate.tables.request import RequestBuilder

    events: list[str] = []
    build, send, read = RequestBuilder.build, HttpClient.send, table_call.read_answer

    async def built(self, uri, view):
        events.append("built")
        return await build(self, uri, view)

    def sent(self, request):
        events.append("sent")
        return send(self, request)

    async def decoded(*args, **kwargs):
        events.append("decoded")
        return await read(*args, **kwargs)

    monkeypatch.setattr(RequestBuilder, "build", built)
    monkeypatch.setattr(HttpClient, "send", sent)
    monkeypatch.setattr(table_call, "read_answer", decoded)
    return events


async def test_requests_beyond_the_window_are_built_after_those_within_it_went_out(upstream, engine_for, monkeypatch):
    by_id(upstream, delay=0.01)
    engine = engine_for(TABLE, config={"maxNestedRequests": 2})
    events = record_order(monkeypatch)
    assert await run(engine, 'select id from item where id in ("1", "2", "3", "4")') == ["1", "2", "3", "4"]
    # the first wave goes out before the rest is even built
    builds = [i for i, e in enumerate(events) if e == "built"]
    sends = [i for i, e in enumerate(events) if e == "sent"]
    assert sends[1] < builds[2], events


async def test_a_freed_slot_carries_its_next_request_out_before_any_answer_is_decoded(
    upstream, engine_for, monkeypatch
):
    by_id(upstream)
    engine = engine_for(TABLE, config={"maxNestedRequests": 2})
    events = record_order(monkeypatch)
    ids = [str(i) for i in range(8)]
    assert await run(engine, 'select id from item where id in ("{ids}")', context={"ids": ids}) == ids
    sends = [i for i, e in enumerate(events) if e == "sent"]
    decodes = [i for i, e in enumerate(events) if e == "decoded"]
    # the k-th answer is decoded only once the slot it freed has carried request k + 2 out
    assert all(sends[2 + k] < decodes[k] for k in range(len(ids) - 2)), events
