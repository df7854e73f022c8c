"""Execution: implicit parallelism, dependencies, write order, fallbacks and blocks."""

import asyncio

import pytest

from qlgate.errors import CompileError, UpstreamError
from tests.conftest import run

ITEMS = "create table items on select get from '{config.base}/items/{^id}' resultset 'item'"


async def test_independent_statements_run_concurrently(upstream, engine_for):
    upstream.reply("GET", "/slow", json_body={"v": 1}, delay=0.2)
    engine = engine_for({"slow.ql": "create table slow on select get from '{config.base}/slow?n={n}'"})
    script = (
        "\n".join(f"r{i} = select v from slow where n = {i}" for i in range(5))
        + "\nreturn ["
        + ", ".join(f'"{{r{i}}}"' for i in range(5))
        + "]"
    )
    started = asyncio.get_running_loop().time()
    assert await run(engine, script) == [[1]] * 5
    assert asyncio.get_running_loop().time() - started < 0.6
    assert upstream.max_in_flight == 5


async def test_dependants_wait_and_start_when_inputs_are_known(upstream, engine_for):
    upstream.reply("GET", "/find", json_body={"ids": ["7"]}, delay=0.05)
    upstream.reply("GET", "/items/7", json_body={"item": {"id": "7", "title": "Kettle"}})
    engine = engine_for({"t.ql": ITEMS + "\ncreate table find on select get from '{config.base}/find'"})
    result = await run(engine, 'ids = select ids[0] from find;\nreturn select title from items where id = "{ids}"')
    assert result == ["Kettle"]
    find, item = upstream.requests
    assert item.started >= find.ended


async def test_writes_run_in_text_order(upstream, engine_for):
    upstream.reply("POST", "/add", json_body={"ok": "add"}, delay=0.1)
    upstream.reply("DELETE", "/remove", json_body={"ok": "remove"})
    engine = engine_for(
        {
            "w.ql": "create table watch on insert post to '{config.base}/add' "
            "on delete delete '{config.base}/remove?id={id}'"
        }
    )
    await run(engine, 'insert into watch (id) values ("1"); delete from watch where id = "1"')
    assert upstream.paths() == ["/add", "/remove"]
    assert upstream.requests[1].started >= upstream.requests[0].ended


async def test_a_failed_statement_fails_the_script_with_its_line(upstream, engine_for):
    upstream.reply("GET", "/items/1", json_body={"error": "boom"}, status=500)
    engine = engine_for({"t.ql": ITEMS})
    with pytest.raises(UpstreamError) as info:
        await run(engine, 'a = 1;\nb = select * from items where id = "1";\nreturn b')
    error = info.value
    assert (error.status, error.line) == (502, 2)
    assert error.details["upstream_status"] == 500 and error.details["body"] == {"error": "boom"}
    assert error.statement == 'select * from items where id = "1"'


async def test_fallbacks_use_the_first_non_null_success(upstream, engine_for):
    upstream.reply("GET", "/items/1", status=404, json_body={})
    engine = engine_for({"t.ql": ITEMS})
    assert await run(engine, 'x = select * from items where id = "1" || {"fallback": true}; return x') == {
        "fallback": True
    }
    assert await run(engine, "return nope || maybe || 3", context={"nope": None, "maybe": None}) == 3


async def test_prerequisites_skip_statements_without_requests(upstream, engine_for):
    engine = engine_for({"t.ql": ITEMS})
    result = await run(engine, 'x = select * from items where id = "{^nothing}"; return x || "skipped"')
    assert result == "skipped" and upstream.requests == []


async def test_if_else_nulls_the_other_branch():
    from qlgate.engine.engine import Engine

    async with Engine() as engine:
        script = 'z = {}; if (z && !n) { a = "yes" } else { b = "no" } return {"a": "{a}", "b": "{b}"}'
        assert await run(engine, script) == {"a": "yes", "b": None}


async def test_try_catch_runs_the_caught_branch():
    from qlgate.engine.engine import Engine

    async with Engine() as engine:
        script = (
            'try { x = 1; throw (oops) } catch (oops) { handled = "{x}" } catch (other) { no = 1 } '
            "finally { done = true } return handled"
        )
        with pytest.raises(CompileError, match="never thrown"):
            await run(engine, script)
        script = (
            'try { x = 1; throw (oops) } catch (oops) { handled = "{x}" } '
            'finally { done = true } return {"h": "{handled}", "d": "{done}"}'
        )
        assert await run(engine, script) == {"h": 1, "d": True}


async def test_cycles_are_compile_errors_not_hangs():
    from qlgate.engine.engine import Engine

    async with Engine() as engine:
        with pytest.raises(CompileError, match="a → c → b → a"):
            await run(engine, 'a = "{c}"; b = "{a}"; c = "{b}"; return a')


async def test_the_same_text_is_compiled_once():
    from qlgate.engine.engine import Engine

    async with Engine() as engine:
        assert engine.compile("return 1") is engine.compile("return 1")


async def test_context_variables_are_visible_like_assigned_ones():
    from qlgate.engine.engine import Engine

    async with Engine() as engine:
        assert await run(engine, "select name.last from foo", context={"foo": {"name": {"last": "W"}}}) == ["W"]


async def test_a_write_in_the_return_waits_for_the_previous_write(upstream, engine_for):
    upstream.reply("POST", "/add", json_body={"ok": "add"}, delay=0.05)
    upstream.reply("DELETE", "/remove", json_body={"ok": "remove"})
    engine = engine_for(
        {
            "w.ql": "create table watch on insert post to '{config.base}/add' "
            "on delete delete '{config.base}/remove?id={id}'"
        }
    )
    assert await run(engine, 'insert into watch (id) values ("1"); return delete from watch where id = "1"') == {
        "ok": "remove"
    }
    assert upstream.paths() == ["/add", "/remove"]
