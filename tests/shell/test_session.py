"""Statements run one by one on one engine: what one assigns or defines, the
next sees; a failure is shown and the session goes on unchanged."""

import json

from qlgate.values import MISSING


async def test_a_variable_assigned_by_one_statement_is_seen_by_the_next(rig, upstream):
    await rig.shell.entry('hits = select * from shop.search where q = "camera";')
    out, err = rig.take()
    assert err == ""
    assert json.loads(out) == [{"id": 1, "title": "red camera"}, {"id": 2, "title": "blue camera"}]
    assert upstream.requests[0].query == {"q": "camera", "n": "10"}
    await rig.shell.entry('return "{hits[1].title}";')
    assert json.loads(rig.take()[0]) == "blue camera"
    # a bare word after return is a variable of the session; so is a from source
    await rig.shell.entry("return hits;")
    assert len(json.loads(rig.take()[0])) == 2
    await rig.shell.entry("return select title from hits where id = 1;")
    assert json.loads(rig.take()[0]) == ["red camera"]
    assert len(upstream.requests) == 1  # the variable was read, not fetched again
    # --var values are variables too
    await rig.shell.entry('return "{given}";')
    assert json.loads(rig.take()[0]) == "from --var"


async def test_variables_of_blocks_and_of_several_assignments_are_kept(rig):
    await rig.shell.entry('a = 1 b = {"k": [1, 2]} select * from shop.search where q = "x"')
    out, _ = rig.take()
    assert len(json.loads(out)) == 2  # the statement's own value: its last line's
    assert rig.session.variables["a"] == 1 and rig.session.variables["b"] == {"k": [1, 2]}
    assert "$shell_value" not in rig.session.variables
    await rig.shell.entry('if (a) { yes = "{b.k}" } else { no = true };')
    assert json.loads(rig.take()[0]) is None  # a block is worth null
    assert rig.session.variables["yes"] == [1, 2] and rig.session.variables["no"] is None
    await rig.shell.entry('a = 2; c = "{a}";')  # a new value replaces the old one
    assert (rig.session.variables["a"], rig.session.variables["c"]) == (2, 2)


async def test_an_error_is_one_line_and_the_session_goes_on(rig):
    rig.shell.interactive = True
    await rig.shell.entry("x = 1;")
    rig.take()
    await rig.shell.entry("select * from nowhere;")
    out, err = rig.take()
    assert out == "" and err == "error: line 1: No such table nowhere\n"
    await rig.shell.entry("select * from nowhere; after = 1;")  # what follows a failure in one entry does not run
    assert "No such table nowhere" in rig.take()[1] and "after" not in rig.session.variables
    await rig.shell.entry("select * frm x;")
    out, err = rig.take()
    assert err.startswith("error: 1:10: unexpected 'frm'") and "^" in err and "Traceback" not in err
    await rig.shell.entry('y = select * from shop.search where n = 5; return "{y}";')  # q is required
    out, err = rig.take()
    assert err == "error: line 1: missing required parameter 'q' for shop.search\n"
    assert "y" not in rig.session.variables
    await rig.shell.entry('return "{x}";')  # still there, the session unchanged
    assert rig.take() == ("1\n", "")


async def test_a_table_created_in_the_session_is_kept(rig, upstream):
    upstream.reply("GET", "/own", json_body={"mine": True})
    await rig.shell.entry(f"create table my.own on select get from '{upstream.base}/own';")
    out, err = rig.take()
    assert out == "" and "table my.own defined for this session" in err
    await rig.shell.entry("return select * from my.own;")
    assert json.loads(rig.take()[0]) == {"mine": True}
    assert "my.own" in rig.session.engine.tables.names()


async def test_a_missing_value_shows_null_and_assigns_nothing(rig):
    await rig.shell.entry('u = "{nowhere}";')
    assert rig.take() == ("null\n", "")
    assert "u" not in rig.session.variables
    outcome = await rig.session.run('u = "{nowhere}"')
    assert outcome.value is MISSING


async def test_a_statement_ending_in_return_says_its_variables_are_not_kept(rig):
    await rig.shell.entry("a = 1 return a;")
    out, err = rig.take()
    assert out == "1\n" and "not kept" in err and "a" not in rig.session.variables


async def test_ctrl_c_cancels_the_running_statement_and_the_shell_goes_on(rig, upstream):
    import asyncio
    import os
    import signal
    import time

    upstream.reply("GET", "/s", json_body=[], delay=20)
    loop = asyncio.get_running_loop()
    loop.call_later(0.3, os.kill, os.getpid(), signal.SIGINT)
    started = time.monotonic()
    await rig.shell.cancellable(rig.shell.entry('slow = select * from shop.search where q = "x";'))
    assert time.monotonic() - started < 10
    assert rig.take() == ("", "cancelled\n") and "slow" not in rig.session.variables
    await rig.shell.entry("return 1;")
    assert rig.take()[0] == "1\n"
