"""Every patch hook of spec §11, plain and async."""

import pytest

from qlgate.errors import InvalidParameter, PatchError, UpstreamError
from tests.conftest import run

PATCH = """
import json

def validate_param(ctx):
    return not (ctx.name == "q" and ctx.value == "forbidden")

def patch_uri(ctx):
    ctx.params["seen"] = "uri"
    ctx.uri.remove_empty_params()
    if ctx.params.get("twice"):
        return [ctx.uri, str(ctx.uri) + "&copy=1"]
    return ctx.uri

async def patch_headers(ctx):
    return {**ctx.headers, "x-seen": ctx.params["seen"]}

def patch_body(ctx):
    return {"type": "application/json", "content": json.dumps({"q": ctx.params["q"]})}

def parse_response(ctx):
    return {"content": ctx.body.decode().replace("OLD", "NEW"), "type": "application/json"}

def patch_status(ctx):
    return 400 if isinstance(ctx.body, dict) and ctx.body.get("ack") == "Failure" else None

def patch_response(ctx):
    return {"wrapped": ctx.body, "seen": ctx.params["seen"]}
"""


@pytest.fixture
def engine(engine_for):
    return engine_for(
        {"p.ql": "create table p on select post to '{config.base}/p?q={q}&e={e}' using patch 'p.py'", "p.py": PATCH}
    )


async def test_hooks_see_and_shape_the_request_and_response(upstream, engine):
    upstream.reply("POST", "/p", text='{"v": "OLD"}', content_type="text/plain")
    assert await run(engine, 'select * from p where q = "x"') == {"wrapped": {"v": "NEW"}, "seen": "uri"}
    sent = upstream.requests[0]
    assert sent.query == {"q": "x"} and sent.headers["x-seen"] == "uri"
    assert sent.body == b'{"q": "x"}' and sent.headers["content-type"] == "application/json"


async def test_patch_uri_can_scatter(upstream, engine):
    upstream.reply("POST", "/p", json_body=[1])
    assert await run(engine, 'select * from p where q = "x" and twice = true') == {
        "wrapped": [1, 1],
        "seen": ["uri", "uri"],
    }
    assert len(upstream.requests) == 2


async def test_validate_param_rejects_before_any_request(upstream, engine):
    with pytest.raises(InvalidParameter, match='Value of q "forbidden" is not valid'):
        await run(engine, 'select * from p where q = "forbidden"')
    assert upstream.requests == []


async def test_patch_status_turns_a_200_into_a_failure(upstream, engine):
    upstream.reply("POST", "/p", json_body={"ack": "Failure"})
    with pytest.raises(UpstreamError) as info:
        await run(engine, 'select * from p where q = "x"')
    assert info.value.status == 400


async def test_a_raising_hook_is_a_typed_error(upstream, engine_for):
    engine = engine_for(
        {
            "b.ql": "create table b on select get from '{config.base}/b' using patch 'b.js'",
            "b.py": "def patch_uri(ctx):\n    raise ValueError('no')\n",
        }
    )
    with pytest.raises(PatchError, match=r"patch_uri of b .*ValueError: no"):
        await run(engine, "select * from b")


async def test_auth_modules_can_refuse_a_request(upstream, engine_for):
    from qlgate.errors import AuthRejected

    upstream.reply("GET", "/a", json_body={"ok": 1})
    engine = engine_for(
        {
            "a.ql": "create table a on select get from '{config.base}/a?u={user}' auth using 'guard.py'",
            "guard.py": "async def auth(ctx):\n    return ctx.params.get('user') == 'sam'\n",
        }
    )
    assert await run(engine, 'select * from a where user = "sam"') == {"ok": 1}
    with pytest.raises(AuthRejected) as info:
        await run(engine, 'select * from a where user = "eve"')
    assert info.value.status == 401 and len(upstream.requests) == 1


async def test_connector_tables_fail_clearly(engine_for):
    from qlgate.errors import UnsupportedVerb

    engine = engine_for({"m.ql": "create table m via mongo on select do find at 'db.items'"})
    with pytest.raises(UnsupportedVerb, match="connector 'mongo'"):
        await run(engine, "select * from m")
