"""select against tables and variables: projection, limit/offset, joins."""

import pytest

from qlgate.errors import CompileError
from tests.conftest import Reply, run

FIND_XML = (
    "<r><item><itemId>1</itemId><title>Boots</title><price currencyId='USD'>9.5</price></item>"
    "<item><itemId>2</itemId><title>Tent</title><price currencyId='USD'>80</price></item></r>"
)
FIND = "create table find on select get from '{config.base}/find?q={^q}&n={limit}&o={offset}' resultset 'r.item'"


async def test_projection_shapes(upstream, engine_for):
    upstream.reply("GET", "/find", text=FIND_XML, content_type="application/xml")
    engine = engine_for({"f.ql": FIND})
    assert await run(engine, "select itemId from find where q = 'x'") == [1, 2]
    assert await run(engine, "select itemId, price.$t from find where q = 'x'") == [[1, 9.5], [2, 80]]
    assert await run(engine, "select title as t, price.currencyId as c from find where q = 'x'") == [
        {"t": "Boots", "c": "USD"},
        {"t": "Tent", "c": "USD"},
    ]


async def test_limit_and_offset_are_sent_and_limit_applied(upstream, engine_for):
    upstream.reply("GET", "/find", text=FIND_XML, content_type="application/xml")
    engine = engine_for({"f.ql": FIND})
    assert await run(engine, "select itemId from find where q = 'x' limit 1 offset 4") == [1]
    assert upstream.requests[0].query == {"q": "x", "n": "1", "o": "4"}


async def test_in_memory_where_uses_loose_equality_and_limit_offset():
    from qlgate.engine.engine import Engine

    async with Engine() as engine:
        rows = [{"id": "1", "c": "red"}, {"id": 2, "c": "blue"}, {"id": 3, "c": "red"}]
        script = 'select id from rows where c = "red" and id in (1, "3")'
        assert await run(engine, script, context={"rows": rows}) == ["1", 3]
        assert await run(engine, "select * from rows limit 1 offset 1", context={"rows": rows}) == [rows[1]]


async def test_join_with_a_table_joiner_makes_one_lookup_per_row(upstream, engine_for):
    upstream.reply("GET", "/find", text=FIND_XML, content_type="application/xml")
    upstream.handler(
        "GET",
        "/detail",
        lambda req, body: Reply(
            body=('{{"d": {{"id": "{}", "stock": {}}}}}'.format(req.query["id"], int(req.query["id"]) * 10)).encode()
        ),
    )
    engine = engine_for(
        {"f.ql": FIND + "\ncreate table detail on select get from '{config.base}/detail?id={id}' resultset 'd'"}
    )
    result = await run(
        engine,
        "select f.title as title, d.stock as stock from find as f, detail as d where f.q = 'x' and d.id = f.itemId",
    )
    assert result == [{"title": "Boots", "stock": 10}, {"title": "Tent", "stock": 20}]
    assert sorted(r.query.get("id", "") for r in upstream.requests if r.path == "/detail") == ["1", "2"]


async def test_join_rules_are_checked_at_compile_time():
    from qlgate.engine.engine import Engine

    async with Engine() as engine:
        with pytest.raises(CompileError, match="must start with one of the aliases"):
            await run(engine, "select x from a as a, b as b where a.id = b.id", context={"a": [], "b": []})


async def test_subselect_feeds_an_in_fan_out(upstream, engine_for):
    upstream.reply("GET", "/find", text=FIND_XML, content_type="application/xml")
    for i in (1, 2):
        upstream.reply("GET", f"/item/{i}", json_body={"Item": {"Title": f"T{i}"}})
    engine = engine_for(
        {"f.ql": FIND + "\ncreate table item on select get from '{config.base}/item/{id}' resultset 'Item'"}
    )
    assert await run(engine, "select Title from item where id in (select itemId from find where q = 'x')") == [
        "T1",
        "T2",
    ]


async def test_show_tables_and_describe_mask_secrets(engine_for):
    engine = engine_for(
        {
            "f.ql": "-- Finds things.\ncreate table find on select get from '{config.base}/f?q={^q}' "
            "using headers 'X-Token' = '{config.token}' using defaults n = 5"
        },
        config={"token": "s3cr3t-token-value"},
    )
    tables = await run(engine, "show tables")
    assert tables == [{"name": "find", "about": "/table?name=find", "info": "<p>Finds things.</p>"}]
    described = await run(engine, "describe find")
    assert described["select"]["params"][0] == {
        "name": "q",
        "required": True,
        "multivalued": False,
        "max": None,
        "merge": "field",
        "encode": True,
    }
    assert "s3cr3t" not in str(described) and described["select"]["defaults"] == {"n": 5}


async def test_where_names_become_flat_parameters_without_the_alias(upstream, engine_for):
    upstream.reply("GET", "/p", json_body={})
    engine = engine_for({"p.ql": "create table p on select get from '{config.base}/p?a={x-y}&b={paging.size}'"})
    await run(engine, "select * from p as s where s['x-y'] = 1 and s.paging.size = 5")
    assert upstream.requests[0].query == {"a": "1", "b": "5"}
