"""ql.io's JavaScript UDF modules in deployer scripts: ``require("x.js")`` runs the
module in the sandbox, and each function is called as ql.io called it (``this.row``,
``this.next``, the script's variables), its answer replacing the row or dropping it."""

from __future__ import annotations

import pytest

from qlgate.js.errors import JsError
from tests.conftest import run

UDF = """
var money = require('./lib/money.js');
exports.add = function (a, b) { return a + b; };
exports.keepCheap = function (price, limit) {
    this.next(null, price <= limit ? this.row : null);
};
exports.price = function (value, currency) { return money.format(value, currency); };
exports.greet = function () { return 'hello ' + this.who; };
exports.boom = function () {
    return this.row.nothing.here;
};
"""
MONEY = "exports.format = function (v, c) { return v.toFixed(2) + ' ' + c; };"
ROWS = [{"t": "a", "p": {"v": 5, "c": "USD"}}, {"t": "b", "p": {"v": 50, "c": "EUR"}}]


@pytest.fixture
async def engine(tmp_path):
    pytest.importorskip("quickjs", reason="the js extra (quickjs) is not installed")
    from qlgate.engine.engine import Engine

    (tmp_path / "u.js").write_text(UDF)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "money.js").write_text(MONEY)
    async with Engine() as e:
        yield e


async def test_js_udfs_as_values_filters_and_columns(engine, tmp_path):
    base = {"base_dir": tmp_path, "context": {"rows": ROWS}}
    assert await run(engine, 'u = require("u.js"); x = 2; return u.add(x, 3)', **base) == 5
    assert await run(engine, 'u = require("u.js"); who = "ql.io"; return u.greet()', **base) == "hello ql.io"
    assert await run(engine, 'u = require("u.js"); return select t from rows where u.keepCheap(p.v, 10)', **base) == [
        "a"
    ]
    assert await run(
        engine, 'u = require("u.js"); return select t as t, u.price(p.v, p.c) as price from rows', **base
    ) == [{"t": "a", "price": "5.00 USD"}, {"t": "b", "price": "50.00 EUR"}]


async def test_a_js_udf_that_throws_names_its_file_and_line(engine, tmp_path):
    with pytest.raises(JsError, match=r"u\.js:10: TypeError"):
        await run(
            engine,
            'u = require("u.js"); return select t from rows where u.boom()',
            base_dir=tmp_path,
            context={"rows": ROWS},
        )
