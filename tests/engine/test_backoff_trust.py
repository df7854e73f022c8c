"""Back-off and the trust boundary: only deployer runs move a deployer table's
failure count, a caller's own inline tables stay off the board, and whatever an
upstream's ``Retry-After`` holds ends in a typed 429, never a 500
(``qlgate/engine/backoff.py``, ``sending.py``)."""

import time

import pytest

from qlgate.engine.backoff import RETRY_AFTER_CEILING, BackoffBoard, retry_after_seconds
from qlgate.errors import QlError, TableBackingOff, UpstreamThrottled
from qlgate.trust import Trust
from tests.conftest import Reply

TABLES = {"t.ql": "create table t.item on select get from '{config.base}/item?id={id}'"}
ROUTE = 'return select * from t.item where id = "{id}" timeout 1000 minDelay 5000 maxDelay 30000;'


def item(request, body) -> Reply:
    if request.query.get("id") == "bad":
        return Reply(status=500, body=b'{"err": "bad id"}')
    return Reply(body=b'{"ok": true}')


async def outcome(engine, script: str, trust: Trust | None = None) -> object:
    try:
        return (await engine.execute(script, trust=trust)).value
    except QlError as e:
        return e


async def test_a_callers_failures_do_not_make_a_deployer_table_back_off(upstream, engine_for):
    upstream.handler("GET", "/item", item)
    engine = engine_for(TABLES)
    callers = Trust.for_callers(engine.config.data, engine.tables.tables())
    for _ in range(5):
        assert isinstance(await outcome(engine, ROUTE.replace("{id}", "bad"), callers), QlError)
    assert engine.backoff.failures("t.item") == 0
    started = time.monotonic()
    assert await outcome(engine, ROUTE.replace("{id}", "good")) == {"ok": True}
    assert time.monotonic() - started < 1


async def test_a_routes_own_failures_still_back_off_and_callers_respect_it(upstream, engine_for):
    upstream.handler("GET", "/item", item)
    engine = engine_for(TABLES)
    callers = Trust.for_callers(engine.config.data, engine.tables.tables())
    for _ in range(3):
        assert isinstance(await outcome(engine, ROUTE.replace("{id}", "bad")), QlError)
    assert engine.backoff.failures("t.item") == 3
    assert isinstance(await outcome(engine, ROUTE.replace("{id}", "good")), TableBackingOff)
    assert isinstance(await outcome(engine, ROUTE.replace("{id}", "good"), callers), TableBackingOff)
    # a caller's success does not clear it either
    assert engine.backoff.failures("t.item") == 3


async def test_a_callers_inline_table_of_the_same_name_neither_counts_nor_resets(upstream, engine_for):
    upstream.handler("GET", "/item", item)
    upstream.handler("GET", "/other", lambda request, body: Reply(status=500, body=b"{}"))
    upstream.handler("GET", "/fine", lambda request, body: Reply(body=b'{"fine": true}'))
    engine = engine_for(TABLES)
    callers = Trust.for_callers(engine.config.data, engine.tables.tables())
    for _ in range(3):
        await outcome(engine, ROUTE.replace("{id}", "bad"))
    assert engine.backoff.failures("t.item") == 3
    for path in ("other", "fine"):
        script = f"create table t.item on select get from '{upstream.base}/{path}';\nreturn select * from t.item;"
        value = await outcome(engine, script, callers)
        assert not isinstance(value, TableBackingOff)  # its own table does not wait on the deployer's
        assert engine.backoff.failures("t.item") == 3
    # a caller's inline table failing does not start back-off for anyone
    fresh = engine_for(TABLES)
    callers = Trust.for_callers(fresh.config.data, fresh.tables.tables())
    script = f"create table t.item on select get from '{upstream.base}/other';\nreturn select * from t.item;"
    for _ in range(4):
        await outcome(fresh, script, callers)
    assert fresh.backoff.failures("t.item") == 0
    assert await outcome(fresh, ROUTE.replace("{id}", "good")) == {"ok": True}


HOSTILE = [
    "²",  # isdigit() but not int()
    "9" * 400,  # int() past a float
    "１２",  # full-width digits
    "Mon, 01 Jan 9999 00:00:00 GMT",  # far future
    "Fri, 31 Dec 99999 23:59:59 GMT",
    "Mon, 01 Jan 1970 00:00:00 +9999",
    "-5",
    "1e9",
    "garbage",
    "",
]


@pytest.mark.parametrize("value", HOSTILE)
async def test_a_hostile_retry_after_is_a_typed_429(upstream, engine_for, value):
    upstream.handler("GET", "/ra", lambda request, body: Reply(status=429, body=b"{}", headers={"Retry-After": value}))
    engine = engine_for({"ra.ql": "create table ra on select get from '{config.base}/ra'"})
    error = await outcome(engine, "return select * from ra timeout 1000;")
    assert isinstance(error, UpstreamThrottled) and error.status == 429
    assert 1 <= error.retry_after <= RETRY_AFTER_CEILING


@pytest.mark.parametrize("value", HOSTILE)
def test_retry_after_seconds_never_raises_and_is_at_most_a_day(value):
    seconds = retry_after_seconds(value)
    assert seconds is None or 0 <= seconds <= RETRY_AFTER_CEILING


def test_a_backing_off_tables_retry_after_is_at_most_a_day():
    error = BackoffBoard().refuse("t", 10.0**12, 10**15, 1.0)
    assert error.retry_after == RETRY_AFTER_CEILING
