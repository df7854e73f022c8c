"""``deprecated 'DATE' use '…'`` and ``retired 'DATE'`` on a table: a retired table
refuses the whole run before anything is sent (a typed 410 naming the date and the
replacement); a deprecated one, or one retiring later, is a warning."""

from __future__ import annotations

import pytest

from qlgate.errors import QlError
from qlgate.tables.lifecycle import TableRetired, check
from tests.conftest import served

TABLES = {
    "old.ql": "create table shop.old on select get from '{config.base}/old?id={id}' "
    "deprecated '2024-07-29' retired '2025-01-06' use 'shop.new'",
    "later.ql": "create table shop.later on select get from '{config.base}/later?id={id}' retired '2999-01-01'",
    "dep.ql": "create table shop.dep on select get from '{config.base}/dep?id={id}' deprecated '2024-01-31' use 'shop.new'",
    "new.ql": "create table shop.new on select get from '{config.base}/new?id={id}'",
}


async def test_a_retired_table_refuses_the_run_before_anything_is_sent(upstream, engine_for):
    upstream.reply("GET", "/new", json_body={"id": 1})
    engine = engine_for(TABLES)
    script = 'a = select * from shop.new where id = "1";\nb = select * from shop.old where id = "2";\nreturn "{a}";'
    with pytest.raises(TableRetired) as caught:
        await engine.execute(script)
    error = caught.value
    assert error.status == 410
    assert error.message == "table shop.old was retired on 2025-01-06: its API no longer answers; use shop.new instead"
    assert error.details == {"table": "shop.old", "retired": "2025-01-06", "use": "shop.new"}
    assert upstream.requests == []  # not even the first statement's call


async def test_deprecated_and_retiring_tables_warn(upstream, engine_for):
    for path in ("/dep", "/later"):
        upstream.reply("GET", path, json_body={"id": 1})
    engine = engine_for(TABLES)
    result = await engine.execute('return select * from shop.dep where id = "1";')
    assert result.value == {"id": 1}
    assert "table shop.dep is deprecated since 2024-01-31; use shop.new" in result.warnings
    result = await engine.execute('return select * from shop.later where id = "1";')
    assert "table shop.later retires on 2999-01-01" in result.warnings


async def test_the_gateway_answers_410_in_the_error_shape(upstream, engine_for):
    async with served(engine_for(TABLES)) as session:
        async with session.get("/q", params={"s": 'return select * from shop.old where id = "2";'}) as resp:
            body = await resp.json()
    assert resp.status == 410 and body["type"] == "TableRetired"
    assert body["retired"] == "2025-01-06" and body["use"] == "shop.new" and "Traceback" not in str(body)


def test_the_day_decides(engine_for):
    engine = engine_for(TABLES)
    old = engine.tables.get("shop.old")
    assert check([old], on="2025-01-05") == ["table shop.old retires on 2025-01-06; use shop.new"]
    with pytest.raises(TableRetired):
        check([old], on="2025-01-06")


@pytest.mark.parametrize("date", ["2025-1-6", "2025-02-30", "soon"])
def test_a_date_that_is_not_a_day_is_a_compile_error(engine_for, date):
    engine = engine_for({})
    with pytest.raises(QlError, match="give the date as YYYY-MM-DD"):
        engine.compile(
            f"create table t on select get from 'http://127.0.0.1:9/x' retired '{date}'; return select * from t;"
        )
