"""A where name the table never reads is refused before anything is sent when it is a near
miss of one it reads, and a warning otherwise (ql.io's scripts name such things); tables
whose code may read any name keep taking any name (tables.param_names)."""

import pytest

from qlgate.errors import InvalidParameter, UnknownParameter
from tests.conftest import run

TABLES = {
    "s.ql": "create table s.search on select get from '{config.base}/s?q={q}&sort={sort}'\n"
    "  using headers 'X-Site' = '{site}'\n"
    "  using defaults region = 'us', page.size = 10\n"
    "  with aliases limit = 'count'",
    "d.ql": "create table d.item on delete delete '{config.base}/d/{^id}'",
    "hooked.ql": "create table hooked on select get from '{config.base}/h?q={q}' using patch 'hooked.py'",
    "hooked.py": "def patch_uri(ctx):\n    ctx.uri.set_param('x', ctx.params.get('extra') or '')\n    return ctx.uri\n",
    "answer.ql": "create table answer on select get from '{config.base}/a?q={q}' using patch 'answer.py'",
    "answer.py": "def patch_response(ctx):\n    return ctx.body\n",
    "gen.ql": "create table gen on select get from '{config.base}/g?q={q}' using patch 'gen.py'",
    "gen.py": "from qlgate.openapi import runtime\npatch_uri = runtime.patch_uri\n",
}


@pytest.fixture
def engine(engine_for):
    return engine_for(TABLES)


async def test_a_misspelt_name_is_refused_with_the_name_meant_and_nothing_is_sent(upstream, engine):
    script = 'a = "x";\nhits = select * from s.search\n   where q = "{a}" and sortt = "price";\nreturn hits;'
    with pytest.raises(UnknownParameter) as info:
        await run(engine, script)
    error = info.value
    assert isinstance(error, InvalidParameter) and error.status == 400
    assert "'sortt' is not a parameter of s.search; did you mean 'sort'?" in error.message
    assert (error.line, error.column) == (3, 24)
    assert error.to_dict()["param"] == "sortt" and error.to_dict()["suggestion"] == "sort"
    assert upstream.requests == []


@pytest.mark.parametrize(
    "where",
    [
        'q = "x" and site = "de"',  # a header's token
        'q = "x" and region = "eu"',  # a default
        'q = "x" and page.size = 5',  # a dotted default
        'q = "x" and page = "x"',  # the object a dotted name is part of
        'q = "x" and limit = 5',
    ],
)
async def test_every_name_the_table_reads_is_taken(upstream, engine, where):
    upstream.reply("GET", "/s", json_body=[])
    assert await run(engine, f"return select * from s.search where {where};") == []


async def test_a_name_near_none_the_table_reads_is_a_warning_and_is_not_sent(upstream, engine):
    upstream.reply("GET", "/s", json_body=[])
    result = await engine.execute('return select * from s.search where q = "x" and keywords = "y";')
    assert result.value == [] and upstream.requests[0].query == {"q": "x", "sort": ""}
    assert result.warnings == [
        "line 1: 'keywords' is not a parameter of s.search, which takes limit, offset, page.size, q, region, "
        "site, sort; not sent"
    ]


async def test_a_delete_is_checked_too(upstream, engine):
    with pytest.raises(UnknownParameter, match="did you mean 'id'"):
        await run(engine, 'delete from d.item where idd = "1"')
    assert upstream.requests == []


async def test_a_variable_is_filtered_whatever_the_names(engine):
    assert await run(engine, 'rows = [{"a": 1}]; return select * from rows where b = 1;') == []


async def test_a_request_hook_may_read_any_name(upstream, engine):
    upstream.reply("GET", "/h", json_body={"ok": 1})
    assert await run(engine, 'return select * from hooked where q = "x" and extra = "y";') == {"ok": 1}
    assert upstream.requests[0].query == {"q": "x", "x": "y"}


async def test_hooks_that_see_only_the_answer_or_are_marked_keep_the_check(upstream, engine):
    for table in ("answer", "gen"):
        with pytest.raises(UnknownParameter, match=f"'qq' is not a parameter of {table}"):
            await run(engine, f'return select * from {table} where qq = "x";')
    assert upstream.requests == []
