"""Back-off (a statement's ``minDelay``/``maxDelay``) and an upstream's ``Retry-After``,
against a loopback upstream that fails on demand (``qlgate/engine/backoff.py``)."""

import email.utils
import time

import pytest

from qlgate.engine.backoff import BackoffSettings, Delays, retry_after_seconds
from qlgate.errors import ConfigError, QlError, TableBackingOff, UpstreamThrottled
from tests.conftest import Reply
from tests.server.test_app import served

TABLES = {
    "flaky.ql": "create table flaky on select get from '{config.base}/flaky'",
    "notes.ql": "create table notes on insert post to '{config.base}/notes'",
}


def failing(times: int, status: int = 500, headers: dict[str, str] | None = None):
    """A handler that answers ``status`` the first ``times`` calls, then 200."""
    calls = {"n": 0}

    def handle(request, body) -> Reply:
        calls["n"] += 1
        if calls["n"] <= times:
            return Reply(status=status, body=b'{"err": "down"}', headers=dict(headers or {}))
        return Reply(body=b'{"ok": true}')

    return handle


async def attempt(engine, script: str) -> tuple[object, float, float | None]:
    """(value or error, seconds it took, seconds its first call waited before it was sent)."""
    started = time.monotonic()
    try:
        result = await engine.execute(script)
        value, diagnostics = result.value, result.diagnostics
    except QlError as e:
        value, diagnostics = e, e.diagnostics
    calls = diagnostics.calls if diagnostics is not None else []
    return value, time.monotonic() - started, calls[0].waited if calls else None


async def test_three_failures_then_calls_wait_doubling_to_max_and_success_resets(upstream, engine_for):
    upstream.handler("GET", "/flaky", failing(5))
    engine = engine_for(TABLES)
    script = "return select * from flaky timeout 2000 minDelay 100 maxDelay 200;"
    for _ in range(3):  # the first three failures are sent at once
        value, _, waited = await attempt(engine, script)
        assert isinstance(value, QlError) and value.status == 502 and waited is None
    assert engine.backoff.failures("flaky") == 3
    expected = [0.1, 0.2, 0.2]  # minDelay, doubled, held at maxDelay
    for i, wait in enumerate(expected):
        value, took, waited = await attempt(engine, script)
        assert waited is not None and wait - 0.02 <= waited <= wait + 0.05, (i, waited)
        assert took >= wait - 0.02
    assert value == {"ok": True}  # the sixth call succeeded: the count is cleared
    assert engine.backoff.failures("flaky") == 0
    value, took, waited = await attempt(engine, script)
    assert value == {"ok": True} and waited is None and took < 0.1
    assert len(upstream.requests) == 7


async def test_no_back_off_unless_asked_and_config_turns_it_on(upstream, engine_for, make_engine):
    upstream.handler("GET", "/flaky", failing(10))
    plain = engine_for(TABLES)
    for _ in range(5):
        value, _, waited = await attempt(plain, "return select * from flaky;")
        assert isinstance(value, QlError) and waited is None
    configured = make_engine(TABLES, {"base": upstream.base, "backoff": {"minDelay": 50, "maxDelay": 50}})
    for _ in range(3):
        await attempt(configured, "return select * from flaky;")
    _, _, waited = await attempt(configured, "return select * from flaky;")
    assert waited is not None and waited >= 0.04
    with pytest.raises(ConfigError, match=r"backoff\.minDelay"):
        BackoffSettings.from_config({"backoff": {"minDelay": -1}})


async def test_a_wait_past_the_deadline_fails_at_once_with_a_typed_error(upstream, engine_for):
    upstream.handler("GET", "/flaky", failing(10, status=503))
    engine = engine_for(TABLES)
    script = "return select * from flaky timeout 300 minDelay 1500 maxDelay 5000;"
    for _ in range(3):
        await attempt(engine, script)
    value, took, _ = await attempt(engine, script)
    assert isinstance(value, TableBackingOff), value
    assert took < 0.2 and len(upstream.requests) == 3  # not sent, not waited for
    assert value.status == 502 and value.retry_after == 2 and value.details["table"] == "flaky"
    assert "Back-off in progress" in value.message and "flaky" in value.message
    assert "retry after 2 s" in value.message


async def test_429_with_retry_after_on_a_get_waits_and_retries_once(upstream, engine_for):
    upstream.handler("GET", "/flaky", failing(1, status=429, headers={"Retry-After": "1"}))
    engine = engine_for(TABLES)
    result = await engine.execute("return select * from flaky;")
    assert result.value == {"ok": True} and len(upstream.requests) == 2
    first, second = result.diagnostics.calls
    assert first.status == 429 and first.waited is None
    assert second.status == 200 and second.wait == "retry-after" and 0.95 <= second.waited <= 1.2
    assert second.duration < 0.5  # waiting is not call time
    report = result.diagnostics.to_dict()
    assert report["waited_ms"] >= 950 and report["calls"][1]["waited_ms"] >= 950
    gap = upstream.requests[1].started - upstream.requests[0].ended
    assert gap >= 0.95
    assert engine.backoff.failures("flaky") == 0  # the 429 counted, the success cleared it


async def test_429_still_after_the_retry_is_a_typed_429_and_counts_as_failures(upstream, engine_for):
    upstream.handler("GET", "/flaky", failing(5, status=429, headers={"Retry-After": "0"}))
    engine = engine_for(TABLES)
    with pytest.raises(UpstreamThrottled) as info:
        await engine.execute("return select * from flaky;")
    assert len(upstream.requests) == 2  # sent again once, not more
    assert info.value.status == 429 and info.value.retry_after == 1
    assert engine.backoff.failures("flaky") == 2


async def test_post_with_429_is_not_retried_and_is_a_typed_429(upstream, engine_for):
    upstream.handler("POST", "/notes", failing(5, status=429, headers={"Retry-After": "7"}))
    engine = engine_for(TABLES)
    with pytest.raises(UpstreamThrottled) as info:
        await engine.execute('insert into notes values ("hello");')
    assert len(upstream.requests) == 1
    error = info.value
    assert error.status == 429 and error.retry_after == 7 and error.details["table"] == "notes"
    assert error.to_dict()["retry_after"] == 7 and "notes" in error.message
    assert engine.backoff.failures("notes") == 1


async def test_the_gateway_answers_an_upstream_429_with_429_and_retry_after(upstream, engine_for):
    upstream.handler("GET", "/flaky", failing(5, status=429, headers={"Retry-After": "120"}))
    async with served(engine_for(TABLES)) as gateway:
        started = time.monotonic()
        async with gateway.get("/q", params={"s": "return select * from flaky;"}) as resp:
            body = await resp.json()
            assert resp.status == 429, body
            assert resp.headers["Retry-After"] == "120"
            assert body["type"] == "UpstreamThrottled" and body["table"] == "flaky"
        assert time.monotonic() - started < 1  # 120 s is past the cap: not waited for
    assert len(upstream.requests) == 1


async def test_retry_after_as_an_http_date(upstream, engine_for):
    def handle(request, body) -> Reply:
        if len(upstream.requests) == 1:
            when = email.utils.formatdate(time.time() + 2, usegmt=True)
            return Reply(status=503, body=b"{}", headers={"Retry-After": when})
        return Reply(body=b'{"ok": 1}')

    upstream.handler("GET", "/flaky", handle)
    engine = engine_for(TABLES)
    result = await engine.execute("return select * from flaky;")
    assert result.value == {"ok": 1} and len(upstream.requests) == 2
    waited = result.diagnostics.calls[1].waited
    assert waited is not None and 0.9 <= waited <= 2.1  # a date says whole seconds
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    assert retry_after_seconds("soon") is None and retry_after_seconds(" 5 ") == 5.0


async def test_a_huge_retry_after_is_capped_and_bounded_by_the_deadline(upstream, engine_for, make_engine):
    upstream.handler("GET", "/flaky", failing(5, status=429, headers={"Retry-After": "3600"}))
    engine = engine_for(TABLES)
    value, took, _ = await attempt(engine, "return select * from flaky;")
    assert isinstance(value, UpstreamThrottled) and value.retry_after == 3600
    assert took < 0.5 and len(upstream.requests) == 1  # past the 30 s cap: answered at once
    upstream.handler("GET", "/flaky", failing(5, status=429, headers={"Retry-After": "2"}))
    value, took, _ = await attempt(engine, "return select * from flaky timeout 500;")
    assert isinstance(value, UpstreamThrottled) and value.retry_after == 2
    assert took < 0.5 and len(upstream.requests) == 2  # longer than the statement may wait
    capped = make_engine(TABLES, {"base": upstream.base, "backoff": {"retryAfterMax": 1000}})
    value, took, _ = await attempt(capped, "return select * from flaky;")
    assert isinstance(value, UpstreamThrottled) and took < 0.5 and len(upstream.requests) == 3


def test_intervals_double_from_min_to_max():
    settings = BackoffSettings()
    delays = Delays(100, 350)
    assert [settings.interval_ms(n, delays) for n in range(2, 8)] == [None, 100, 200, 350, 350, 350]
    assert settings.interval_ms(5, Delays()) is None  # off unless asked
    assert settings.interval_ms(3, Delays(max_ms=200)) == 200  # default minDelay 500, held at max
    assert settings.interval_ms(3, Delays(min_ms=40_000)) == 40_000
    assert settings.interval_ms(10_000, delays) == 350
