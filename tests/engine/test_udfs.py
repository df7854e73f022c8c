"""UDFs as values, where filters and columns."""

import pytest

from qlgate.errors import UdfError, UdfNotFound
from tests.conftest import run

UDF = """
async def add(ctx, a, b):
    return a + b

def keep_cheap(ctx, price, limit):
    return ctx.row if price <= limit else None

def money(ctx, value, currency):
    return f"{value:.2f} {currency}"

def boom(ctx):
    raise RuntimeError("bad")
"""
ROWS = [{"t": "a", "p": {"v": 5, "c": "USD"}}, {"t": "b", "p": {"v": 50, "c": "EUR"}}]


@pytest.fixture
async def engine(tmp_path):
    from qlgate.engine.engine import Engine

    (tmp_path / "u.py").write_text(UDF)
    async with Engine() as e:
        yield e


async def test_udf_values_filters_and_columns(engine, tmp_path):
    base = {"base_dir": tmp_path, "context": {"rows": ROWS}}
    assert await run(engine, 'u = require("u.py"); x = 2; return u.add(x, 3)', **base) == 5
    assert await run(engine, 'u = require("u.js"); return select t from rows where u.keepCheap(p.v, 10)', **base) == [
        "a"
    ]
    assert await run(
        engine, 'u = require("u.py"); return select t as t, u.money(p.v, p.c) as price from rows', **base
    ) == [{"t": "a", "price": "5.00 USD"}, {"t": "b", "price": "50.00 EUR"}]


async def test_udf_errors_are_typed(engine, tmp_path):
    with pytest.raises(UdfNotFound, match="'nope'"):
        await run(engine, 'u = require("u.py"); return u.nope()', base_dir=tmp_path)
    with pytest.raises(UdfError, match="RuntimeError: bad"):
        await run(engine, 'u = require("u.py"); return u.boom()', base_dir=tmp_path)
