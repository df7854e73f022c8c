"""The table call as the engine runs it: what reaches the upstream is what the
tables side builds (so the request golden files speak for the engine too), and
the answer is read the way ``tables/response.py`` says."""

from __future__ import annotations

from urllib.parse import urlsplit

from qlgate.engine.engine import Engine
from qlgate.tables.call import CallHooks, mapping_for
from qlgate.tables.request import Outgoing, RequestBuilder, call_params, param_view
from tests.conftest import run

ADD = (
    "create table shop.add on insert post to '{config.base}/add/{^list}?note={note}' "
    "using headers 'X-App' = '{config.app}', 'X-Note' = '{note}' "
    "using bodyTemplate 'add.json.mu' type 'application/json'"
)
ADD_BODY = '{"title": "{{params.title}}", "qty": {{params.qty}}}'


async def built_by_tables(engine: Engine, values: dict) -> list:
    table = engine.tables.get("shop.add")
    mapping = mapping_for(table, "insert")
    params = call_params(mapping, values)
    config = engine.config.data
    settings = engine.config.settings
    builder = RequestBuilder(
        CallHooks(table, mapping, None, config=config),
        kind="insert",
        params=params,
        timeout_ms=settings.timeout_for(table.name),
        outgoing=Outgoing(settings.connection, settings.request_id_header, "rid-1"),
    )
    return await builder.build_all(param_view(mapping, params, {}, config=config))


async def test_the_engine_sends_the_request_the_tables_side_builds(upstream, engine_for):
    upstream.reply("POST", "/add/wish", json_body={"ok": True})
    engine = engine_for({"add.ql": ADD, "add.json.mu": ADD_BODY}, config={"app": "app-9"})
    script = 'return insert into shop.add (list, note, title, qty) values ("wish", "a b", \'Tent "XL"\', 2)'
    assert (await engine.execute(script, request_id="rid-1")).value == {"ok": True}
    (built,) = await built_by_tables(engine, {"list": "wish", "note": "a b", "title": 'Tent "XL"', "qty": 2})
    (received,) = upstream.requests
    url = urlsplit(built.url)
    assert (received.method, received.path, received.query) == ("POST", url.path, {"note": "a b"})
    assert {name: received.headers.get(name) for name in built.headers} == built.headers
    assert received.body == built.body == b'{"title": "Tent \\"XL\\"", "qty": 2}'


async def test_fan_out_answers_are_merged_in_request_order(upstream, engine_for):
    for n in ("1", "2", "3"):
        upstream.reply("GET", f"/item/{n}", json_body={"item": {"id": n}}, delay=0.01 * (4 - int(n)))
    engine = engine_for({"i.ql": "create table item on select get from '{config.base}/item/{id}' resultset 'item'"})
    assert await run(engine, 'return select id from item where id in ("1", "2", "3")') == ["1", "2", "3"]
