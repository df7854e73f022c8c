"""ql.io's JavaScript in real tables, through the engine and the gateway on
127.0.0.1: an EJS body and a .js patch shape what the upstream receives, and a
runaway template is a typed answer while /health keeps answering."""

from __future__ import annotations

import asyncio
import json

import pytest

from qlgate.js import sandbox
from tests.conftest import run, served

PATCH = """var common = require('./lib/common.js');
exports['patch uri'] = function (options) {
    var uri = options.uri, statement = options.statement, params = options.params;
    uri.removeEmptyParams();
    if (statement.limit) uri.setParam('limit', statement.limit);
    if (params.extra) uri.addParam('extra', common.shout(params.extra));
    return uri;
};
exports['patch status'] = function (options) {
    return options.body && options.body.ack === 'Failure' ? 400 : options.status;
};
"""

TABLES = {
    "items.ql": (
        "create table items on select get from '{config.base}/items?q={q}&empty={e}' using defaults e = ''"
        " using patch 'items.js'"
    ),
    "items.js": PATCH,
    "lib/common.js": "exports.shout = function (s) { return String(s).toUpperCase(); };",
    "add.ql": (
        "create table add on insert post to '{config.base}/add' using bodyTemplate 'add.ejs' type 'application/xml'"
    ),
    "add.ejs": (
        "<% function tag(k, v) { if (v) { %><<%= k %>><%= v %></<%= k %>><% } } -%>\n"
        "<Add><% tag('Title', params.title); tag('Price', params['price.value']) %>"
        "<Site><%= params.config.site %></Site><Raw><%- params.raw %></Raw></Add>"
    ),
    "json.ql": (
        "create table js on insert post to '{config.base}/add' using bodyTemplate 'j.ejs' type 'application/json'"
    ),
    "j.ejs": '{"title": "<%= params.title %>"}',
    "spin.ql": "create table spin on insert post to '{config.base}/add' using bodyTemplate 'spin.ejs' type 'application/xml'",
    "spin.ejs": "<a>\n<% for (;;) {} %>\n</a>",
}


async def test_a_js_patch_edits_the_uri_and_the_status(engine_for, upstream):
    upstream.reply("GET", "/items", json_body={"ack": "Success", "n": 1})
    engine = engine_for(TABLES)
    assert await run(engine, "return select * from items where q = 'a' and extra = 'x' limit 3") == {
        "ack": "Success",
        "n": 1,
    }
    assert upstream.requests[-1].query == {"q": "a", "limit": "3", "extra": "X"}  # `empty=` removed
    upstream.reply("GET", "/items", json_body={"ack": "Failure"})
    with pytest.raises(Exception) as caught:
        await run(engine, "return select * from items where q = 'b'")
    assert getattr(caught.value, "status", None) == 400


async def test_an_ejs_body_with_helpers_escaping_and_raw_output(engine_for, upstream):
    upstream.echo("POST", "/add", content_type="text/plain")
    engine = engine_for(TABLES, config={"site": "S&P"})
    await run(engine, "insert into add (title, price.value, raw) values ('<b>A & B</b>', '9.5', '<x/>')")
    assert upstream.requests[-1].body.decode() == (
        "<Add><Title>&lt;b&gt;A &amp; B&lt;/b&gt;</Title><Price>9.5</Price><Site>S&amp;P</Site><Raw><x/></Raw></Add>"
    )
    await run(engine, "insert into js (title) values ('say \"hi\"')")
    assert json.loads(upstream.requests[-1].body) == {"title": 'say "hi"'}  # JSON bodies get JSON escaping


async def test_a_runaway_template_is_a_typed_error_and_health_answers_meanwhile(engine_for, upstream):
    before = sandbox.limits()
    sandbox.set_limits(sandbox.JsLimits(cpu_ms=1500))
    try:
        engine = engine_for(TABLES)
        async with served(engine) as client:
            script = "insert into spin (a) values ('x')"
            slow = asyncio.ensure_future(client.post("/q", data=script))
            await asyncio.sleep(0.2)
            answered = 0
            while not slow.done():
                async with client.get("/health") as health:
                    assert health.status == 200
                    answered += 1
                await asyncio.sleep(0.05)
            response = await slow
            body = await response.json()
            assert answered >= 1, "the loop never served /health while the template spun"
            assert response.status == 504 and "spin.ejs:2: ran past its 1500 ms CPU limit" in body["err"]
            response.release()
    finally:
        sandbox.set_limits(before)
