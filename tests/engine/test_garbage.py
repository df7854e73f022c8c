"""A run that succeeds leaves no reference cycles behind. Its objects are then
freed as soon as the run ends; a cycle (a call's hooks holding a method bound to
the call, say) leaves them all to the cycle collector, whose passes cost a
served ``select *`` a tenth of its CPU under load (issue 18)."""

import pytest

from tests.conftest import Reply, cyclic_garbage, run

TABLES = {
    "t.ql": (
        "create table items on select get from '{config.base}/items?q={q}' resultset 'items'\n"
        "create table item on select get from '{config.base}/item?id={id}'\n"
    )
}
SCRIPTS = [
    'select * from items where q = "x"',
    'select id, title from items where q = "x"',
    'select id from item where id in (select id from items where q = "x")',
    'select i.id, d.id from items as i, item as d where i.q = "x" and d.id = i.id',
    'a = select * from items where q = "x"; b = select id from a; return {"ids": "{b}"};',
]


@pytest.fixture
def answers(upstream):
    upstream.reply("GET", "/items", json_body={"items": [{"id": str(i), "title": f"t{i}"} for i in range(5)]})
    upstream.handler("GET", "/item", lambda req, body: Reply(body=b'{"id": "%s"}' % req.query["id"].encode()))


@pytest.mark.parametrize("script", SCRIPTS)
async def test_a_run_leaves_no_cycles_for_the_collector(answers, engine_for, script):
    engine = engine_for(TABLES)
    await run(engine, script)  # first runs warm caches (compiled scripts, pools)
    assert await cyclic_garbage(lambda: run(engine, script)) == []
