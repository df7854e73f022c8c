"""Errors that name what is wrong: a table's ``{config.…}`` token that names no
config key (today's symptom was a 502 "cannot reach /v1/forecast…"), an
unknown table, and the variables a script reads but never assigns."""

from __future__ import annotations

import pytest

from qlgate.engine.free_names import unassigned
from qlgate.engine.planner import compile_script
from qlgate.errors import MissingParameter, TableNotFound
from qlgate.lang.parser import parse
from qlgate.tables.config_refs import UnresolvedConfig, suggestion, tokens_in
from qlgate.trust import Trust
from tests.conftest import run

WEATHER = """
create table weather.forecast
  on select get from "{config.weather.%s}/v1/forecast?city={^city}&units={units}"
     using headers 'X-Key' = "{config.weather.%s}"
"""


def weather(upstream, make_engine, base: str = "base", key: str = "key"):
    upstream.reply("GET", "/v1/forecast", json_body={"temp": 21})
    config = {"weather": {"base": upstream.base, "key": "k-1"}}
    return make_engine({"weather.ql": WEATHER % (base, key)}, config)


async def test_a_mistyped_config_token_in_a_uri_names_the_token_the_table_and_the_key_meant(upstream, make_engine):
    engine = weather(upstream, make_engine, base="bse")

    with pytest.raises(UnresolvedConfig) as caught:
        await run(engine, 'return select * from weather.forecast where city = "Paris";')

    error = caught.value
    assert error.message == (
        "weather.forecast: the URI token {config.weather.bse} names nothing in the config; "
        "did you mean {config.weather.base}?"
    )
    assert error.details["token"] == "config.weather.bse" and error.line == 1
    assert upstream.requests == []  # refused before anything is sent


async def test_a_mistyped_config_token_in_a_header_is_refused_too(upstream, make_engine):
    engine = weather(upstream, make_engine, key="kye")

    with pytest.raises(
        UnresolvedConfig, match=r"header 'X-Key' token \{config\.weather\.kye\}.*\{config\.weather\.key\}"
    ):
        await run(engine, 'return select * from weather.forecast where city = "Paris";')

    assert upstream.requests == []


async def test_config_tokens_that_resolve_are_sent_and_optional_parameters_stay_optional(upstream, make_engine):
    engine = weather(upstream, make_engine)

    assert await run(engine, 'return select * from weather.forecast where city = "Paris";') == {"temp": 21}

    sent = upstream.requests[0]
    assert sent.query == {"city": "Paris", "units": ""} and sent.headers["x-key"] == "k-1"
    with pytest.raises(MissingParameter, match="city"):  # {^city} is still a required parameter
        await run(engine, "return select * from weather.forecast;")


async def test_a_config_key_present_but_empty_is_not_an_error(upstream, make_engine):
    upstream.reply("GET", "/v1/forecast", json_body={"temp": 3})
    tables = {"w.ql": 'create table w on select get from "{config.base}/v1/forecast?k={config.weather.key}"'}
    engine = make_engine(tables, {"base": upstream.base, "weather": {"key": ""}})

    assert await run(engine, "return select * from w;") == {"temp": 3}


async def test_in_a_callers_own_table_it_is_the_callers_mistake_and_suggests_only_what_they_may_read(
    upstream, make_engine
):
    config = {
        "shop": {"site": "0", "sight": "hidden"},
        "gateway": {"adhoc": {"publicConfig": ["shop.site", "shop.sit"]}},
    }
    engine = make_engine({}, config)
    callers = Trust.for_callers(engine.config.data, [])
    script = (
        f'create table mine on select get from "{upstream.base}/x?s={{config.shop.sit}}";\nreturn select * from mine;'
    )

    with pytest.raises(UnresolvedConfig) as caught:
        await engine.execute(script, trust=callers)

    assert caught.value.status == 400
    assert caught.value.message == (
        "mine: the URI token {config.shop.sit} names nothing in the config; did you mean {config.shop.site}?"
    )
    hidden = make_engine({}, {**config, "shop": {"sight": "hidden"}})  # "shop.sight" is not theirs to read
    with pytest.raises(UnresolvedConfig) as unseen:
        await hidden.execute(script, trust=Trust.for_callers(hidden.config.data, []))
    assert "did you mean" not in unseen.value.message
    assert upstream.requests == []


async def test_an_unknown_table_suggests_the_near_names(make_engine):
    engine = make_engine(
        {
            "a.ql": 'create table weather.forecast on select get from "http://127.0.0.1:9/x"',
            "b.ql": 'create table shop.items on select get from "http://127.0.0.1:9/y"',
        }
    )

    with pytest.raises(TableNotFound) as caught:
        await run(engine, "return select * from weather.forcast;")
    assert caught.value.message == "No such table weather.forcast; did you mean weather.forecast?"
    with pytest.raises(TableNotFound, match="did you mean forecast"):  # written by its end, suggested so
        await run(engine, "describe forcast;")
    with pytest.raises(TableNotFound) as far:
        await run(engine, "return select * from nothing.near;")
    assert far.value.message == "No such table nothing.near"


def test_suggestion_replaces_the_first_missing_name_with_the_nearest():
    config = {"tables": {"ebay": {"trading": {"gateway": "x", "siteid": "0"}}}}

    assert suggestion(config, "config.tables.ebay.tradng.gateway") == "config.tables.ebay.trading.gateway"
    assert suggestion(config, "config.tables.ebay.trading.siteId") == "config.tables.ebay.trading.siteid"
    assert suggestion(config, "config.nothing.like.it") is None


def test_tokens_in_finds_config_tokens_with_positions_and_skips_comment_lines():
    text = (
        '-- uses {config.doc.only}\ncreate table t\n  on select get from "{config.a.b}/x?k={^config.c}&n={config.{x}}"'
    )

    found = [(f.reference, f.line, f.column) for f in tokens_in(text)]

    assert found == [("config.a.b", 3, 23), ("config.c", 3, 40)]


# ---------------------------------------------------------------- variables a script never assigns


def free(source: str, given=()):
    script = parse(source)
    return unassigned(script, compile_script(script).assigned, given)


def test_a_mistyped_variable_is_found_with_its_position_and_the_name_meant():
    found = free('name = "x";\nreturn {"greeting": "hello {nme}"};')

    assert [(u.name, u.line, u.column, u.suggestion) for u in found] == [("nme", 2, 28, "name")]
    assert (
        found[0].message("no --var gives it") == "'nme' is never assigned and no --var gives it; did you mean 'name'?"
    )


def test_given_names_config_and_table_templates_are_not_reported():
    source = """
create table t on select get from "http://127.0.0.1:9/{p}?q={^q}";
a = select * from t where q = "{keywords}";
if (a) { b = "{a} {config.x}"; }
return "{b}";
"""
    assert free(source, given=["keywords"]) == []
    assert [u.name for u in free(source)] == ["keywords"]


def test_a_route_pattern_declares_rather_than_reads():
    source = "return \"{itemId} {nope}\" via route '/items/{itemId}?x={other}' using method get;"

    assert [u.name for u in free(source, given=["itemId", "other"])] == ["nope"]


async def test_no_key_name_is_suggested_for_a_token_a_callers_value_helped_spell(upstream, make_engine):
    """A deployer's table whose token takes a caller's value must not turn the error into
    a way to probe the deployer's config keys."""
    config = {"regions": {"internalBilling": {"base": upstream.base}}}
    table = 'create table regional on select get from "{config.regions.{region}.base}/x?q={q}"\n'
    engine = make_engine({"regional.ql": table}, config)
    callers = Trust.for_callers(engine.config.data, [])

    with pytest.raises(UnresolvedConfig) as caught:
        await engine.execute('return select * from regional where region = "internalBiling";', trust=callers)

    assert "did you mean" not in caught.value.message and "internalBilling" not in caught.value.message
    assert upstream.requests == []


def test_an_if_condition_reads_its_variables_too():
    source = 'name = "x";\nif (nme) { b = 1; }\nreturn name;'
    plan = compile_script(parse(source))
    (found,) = unassigned(plan.script, plan.assigned, [])
    assert (found.name, found.line, found.suggestion) == ("nme", 2, "name")
