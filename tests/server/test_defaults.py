"""Defaults that used to bite, through the real gateway on 127.0.0.1: ``/q`` takes the
variables of a JSON body and refuses a member it does not know; a route's optional
parameter left out leaves the table's default in place; an upstream 404 through a
route is a 404 naming the statement, not the whole script."""

from __future__ import annotations

import pytest

from tests.conftest import served

TABLES = {
    "forecast.ql": "create table forecast on select get from '{config.base}/forecast?city={^city}&days={days}' "
    "using defaults days = 3",
    "item.ql": "create table item on select get from '{config.base}/items/{^id}'",
}
ROUTES = {
    "forecast.ql": '-- The forecast.\nreturn select * from forecast where city = "{city}" and days = "{days}"\n'
    "  via route '/weather/{city}?days={days}' with optional params using method get;",
    "item.ql": '-- An item.\nnote = "a long route, whose text the answer need not carry";\n'
    'found = select * from item\n  where id = "{id}";\n'
    "return \"{found}\" via route '/items/{id}' using method get;",
}


@pytest.fixture
async def gateway(upstream, engine_for):
    upstream.reply("GET", "/forecast", json_body={"ok": 1})
    async with served(engine_for(TABLES, routes=ROUTES)) as session:
        yield session


async def test_q_takes_the_vars_of_a_json_body(gateway):
    body = {"s": 'return "{who}";', "vars": {"who": "world"}}
    async with gateway.post("/q", json=body) as resp:
        assert resp.status == 200 and await resp.json() == "world"
    async with gateway.post("/q", json={"script": 'return "{n}";', "vars": {"n": [1, 2]}}) as resp:
        assert resp.status == 200 and await resp.json() == [1, 2]


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"s": 'return "{who}";', "varz": {"who": "x"}}, '"varz" (did you mean "vars"?)'),
        ({"s": "return 1;", "diagnostic": True, "zzz": 1}, '"zzz"'),
    ],
)
async def test_q_refuses_a_member_it_does_not_know_and_names_it(gateway, body, named):
    async with gateway.post("/q", json=body) as resp:
        answer = await resp.json()
        assert resp.status == 400 and answer["type"] == "UnknownMember", answer
        assert named in answer["err"] and '"vars"' in answer["err"]


async def test_q_refuses_vars_that_are_not_an_object(gateway):
    async with gateway.post("/q", json={"s": "return 1;", "vars": [1]}) as resp:
        assert resp.status == 400 and '"vars" must be an object' in (await resp.json())["err"]


async def test_an_optional_route_parameter_left_out_keeps_the_tables_default(upstream, gateway):
    async with gateway.get("/weather/Paris") as resp:
        assert resp.status == 200, await resp.text()
    async with gateway.get("/weather/Oslo", params={"days": "2"}) as resp:
        assert resp.status == 200, await resp.text()
    assert [r.query for r in upstream.requests] == [{"city": "Paris", "days": "3"}, {"city": "Oslo", "days": "2"}]


async def test_an_upstream_404_through_a_route_is_a_404_naming_the_statement(upstream, gateway):
    upstream.reply("GET", "/items/nope", status=404, json_body={"error": "no such item"})
    async with gateway.get("/items/nope") as resp:
        answer = await resp.json()
    assert resp.status == 404 and answer["type"] == "UpstreamError", answer
    # the statement named by its line and first line, not the route's script read out to its caller
    assert answer["line"] == 3 and answer["statement"] == "select * from item …"
    async with gateway.get("/q", params={"s": 'return select * from item\n  where id = "nope";'}) as resp:
        answer = await resp.json()  # /q: the caller's own script, an upstream 4xx its mistake
    assert resp.status == 400 and answer["statement"] == 'select * from item\n  where id = "nope"'
