"""Statements on their own, against a ``FakeRun`` (``fake_run.py``): no engine, no
server — variables are a dict and upstream answers are scripted per path. Each
test is an example of one rule of select, join, insert, update or delete."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from qlgate.errors import FanOutLimit, ScriptBudgetExceeded, StatementError, TableNotFound
from qlgate.values import MISSING
from tests.engine.fake_run import FakeRun, table

ITEMS = [
    {"id": "1", "title": "Boots", "price": 9.5, "tags": ["red"]},
    {"id": "2", "title": "Tent", "price": 80, "tags": ["green", "big"]},
    {"id": "3", "title": "Lamp", "price": 12, "tags": []},
]
PRICES = [{"item": "1", "amount": 9.5}, {"item": "2", "amount": 80}, {"item": "9", "amount": 1}]


def query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


# ------------------------------------------------------------------ select from a variable


async def test_select_from_a_variable_filters_projects_and_slices_in_memory():
    run = FakeRun({"items": ITEMS})
    assert await run.evaluate("select title from items where price = 80") == ["Tent"]
    assert await run.evaluate('select id as i, title as t from items where id in ("1", "3")') == [
        {"i": "1", "t": "Boots"},
        {"i": "3", "t": "Lamp"},
    ]
    assert await run.evaluate("select id from items limit 1 offset 1") == ["2"]


async def test_select_star_from_a_variable_without_clauses_is_the_value_itself():
    run = FakeRun({"items": ITEMS})
    assert await run.evaluate("select * from items") is ITEMS


async def test_equality_is_loose():
    run = FakeRun({"items": ITEMS})
    assert await run.evaluate('select id from items where price = "9.5"') == ["1"]
    assert await run.evaluate("select id from items where id = 2") == ["2"]


async def test_an_in_select_condition_runs_the_nested_select_first():
    run = FakeRun({"items": ITEMS, "cheap": [{"id": "1"}, {"id": "3"}]})
    assert await run.evaluate("select title from items where id in (select id from cheap)") == ["Boots", "Lamp"]


async def test_a_missing_prerequisite_skips_the_statement_with_a_warning():
    run = FakeRun({"items": ITEMS})
    assert await run.evaluate('select * from items where id = "{^wanted}"') is MISSING
    assert run.warnings == ["line 1: skipped, prerequisite {^wanted} is missing"]


async def test_in_memory_filters_count_against_the_script_budget():
    run = FakeRun({"items": ITEMS * 10}, config={"scriptBudget": 20})
    with pytest.raises(ScriptBudgetExceeded, match="an in-memory filter"):
        await run.evaluate('select id from items where id = "1"')


# ------------------------------------------------------------------ select from a table


async def test_select_from_a_table_sends_the_conditions_and_reads_the_result_set():
    items = table(
        "create table items on select get from '{config.base}/items?q={q}&n={count}' "
        "with aliases limit = 'count' resultset 'found.item'"
    )
    run = FakeRun(tables=(items,), answers={"/items": lambda r: {"found": {"item": ITEMS}}})
    assert await run.evaluate('select title from items where q = "outdoor" limit 2') == ["Boots", "Tent"]
    (sent,) = run.sent
    assert (sent.method, query(sent.url)) == ("get", {"q": ["outdoor"], "n": ["2"]})


async def test_an_unknown_table_is_reported_where_its_name_is_written():
    run = FakeRun()
    with pytest.raises(TableNotFound) as info:
        await run.evaluate("select * from   nowhere")  # evaluated as x = select …
    assert (info.value.line, info.value.column) == (1, 21)


# ------------------------------------------------------------------ joins


async def test_a_join_of_two_variables_pairs_rows_on_their_keys():
    run = FakeRun({"items": ITEMS, "prices": PRICES})
    assert await run.evaluate(
        "select i.title as t, p.amount as a from items as i, prices as p where p.item = i.id"
    ) == [{"t": "Boots", "a": 9.5}, {"t": "Tent", "a": 80}]
    assert await run.evaluate("select * from items as i, prices as p where p.item = i.id and i.id = '2'") == [
        {**ITEMS[1], **PRICES[1]}
    ]


async def test_a_join_against_a_table_makes_one_call_per_main_row_with_its_key():
    prices = table("create table prices on select get from '{config.base}/price?item={^item}'")
    run = FakeRun(
        {"items": [*ITEMS[:2], {"title": "no id"}]},
        tables=(prices,),
        answers={"/price": lambda r: {"amount": len(query(r.url)["item"][0])}},
    )
    assert await run.evaluate("select i.id as id, p.amount as a from items as i, prices as p where p.item = i.id") == [
        {"id": "1", "a": 1},
        {"id": "2", "a": 1},
    ]
    assert sorted(query(r.url)["item"][0] for r in run.sent) == ["1", "2"]  # the row without a key: no call


async def test_a_join_needing_more_lookups_than_max_fan_out_fails_before_calling():
    prices = table("create table prices on select get from '{config.base}/price?item={^item}'")
    run = FakeRun({"items": ITEMS}, tables=(prices,), config={"maxFanOut": 2})
    with pytest.raises(FanOutLimit, match="join needs 3 lookups; the limit is 2"):
        await run.evaluate("select * from items as i, prices as p where p.item = i.id")
    assert run.sent == []


# ------------------------------------------------------------------ writes


async def test_insert_into_a_variable_returns_an_updated_copy():
    user = {"name": "Ann", "tags": ["a"]}
    run = FakeRun({"user": user})
    assert await run.evaluate('insert into user (age, city) values (40, "Oslo")') == {
        "name": "Ann",
        "tags": ["a"],
        "age": 40,
        "city": "Oslo",
    }
    assert user == {"name": "Ann", "tags": ["a"]}


async def test_update_of_a_variable_is_refused():
    run = FakeRun({"user": {}})
    with pytest.raises(StatementError, match="cannot update variable 'user'"):
        await run.evaluate('update user with "{user}"')


async def test_delete_from_a_variable_drops_matching_rows_or_keys():
    run = FakeRun({"items": ITEMS, "user": {"name": "Ann", "age": 40}})
    assert [r["id"] for r in await run.evaluate("delete from items where price = 80")] == ["1", "3"]
    assert await run.evaluate("delete from user where age = 40") == {"name": "Ann"}
    assert await run.evaluate('delete from user where age = "40"') == {"name": "Ann", "age": 40}  # exact type


async def test_insert_into_a_table_sends_the_columns_as_parameters():
    add = table("create table add on insert post to '{config.base}/add?name={name}&age={age}'")
    run = FakeRun(tables=(add,), answers={"/add": lambda r: {"ok": True}})
    assert await run.evaluate('insert into add (name, age) values ("Bo", 7)') == {"ok": True}
    (sent,) = run.sent
    assert (sent.method, query(sent.url), sent.retry) == ("post", {"name": ["Bo"], "age": ["7"]}, False)


# ------------------------------------------------------------------ values


async def test_json_literals_are_filled_and_counted():
    run = FakeRun({"a": {"b": [1, 2]}})
    assert await run.evaluate('{"x": "{a.b}", "y": "n={a.b[0]}"}') == {"x": [1, 2], "y": "n=1"}
    assert run.budget.spent > 0
