"""Gateway limits, each with a safe default: body size, script length, total
time, and which upstreams ad-hoc scripts may reach (no SSRF)."""

import logging

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from qlgate.server.app import build_app
from qlgate.trust import HostAllowList, UpstreamNotAllowed

TABLES = {"items.ql": "create table items on select get from '{config.base}/items?q={q}'"}


@pytest.fixture
async def gateway(engine_for):
    """Start a gateway with the given config; returns a client session for it."""
    servers = []

    async def start(config=None, **kw):
        server = TestServer(build_app(engine_for(TABLES, config=config, **kw)), host="127.0.0.1")
        await server.start_server()
        servers.append(server)
        return aiohttp.ClientSession(base_url=str(server.make_url("")))

    yield start
    for server in servers:
        await server.close()


async def test_adhoc_scripts_reach_only_the_hosts_the_tables_use(upstream, gateway):
    upstream.reply("GET", "/items", json_body={"ok": 1})
    async with await gateway() as client:
        async with client.get("/q", params={"s": 'return select * from items where q = "x"'}) as resp:
            assert resp.status == 200 and await resp.json() == {"ok": 1}
        internal = "create table t on select get from 'http://127.0.0.2:9/admin'; return select * from t"
        async with client.get("/q", params={"s": internal}) as resp:
            body = await resp.json()
            assert resp.status == 403 and "may not call 127.0.0.2:9" in body["err"]
    assert upstream.paths() == ["/items"]


async def test_redirects_cannot_escape_the_allow_list(upstream, gateway):
    upstream.reply("GET", "/items", status=302, headers={"Location": "http://127.0.0.2:9/secret"}, content_type=None)
    async with await gateway() as client:
        async with client.get("/q", params={"s": 'return select * from items where q = "x"'}) as resp:
            assert resp.status == 403


async def test_inline_tables_and_q_can_be_switched_off(gateway):
    async with await gateway({"gateway": {"adhoc": {"inlineTables": False}}}) as client:
        async with client.get("/q", params={"s": "create table t on select get from 'http://x'; return 1"}) as resp:
            assert resp.status == 400 and "inlineTables" in (await resp.json())["err"]
    async with await gateway({"gateway": {"adhoc": {"enabled": False}}}) as client:
        async with client.get("/q", params={"s": "return 1"}) as resp:
            assert resp.status == 404


async def test_size_and_time_limits(upstream, gateway):
    upstream.reply("GET", "/items", json_body={}, delay=0.5)
    config = {"gateway": {"maxBodyBytes": 100, "maxScriptLength": 50, "requestTimeoutMs": 200}}
    async with await gateway(config) as client:
        async with client.post("/q", data="return 1;" + " " * 200) as resp:
            assert resp.status == 413 and "gateway.maxBodyBytes" in (await resp.json())["err"]
        async with client.get("/q", params={"s": "return 1;" + " " * 60}) as resp:
            assert resp.status == 400 and "gateway.maxScriptLength" in (await resp.json())["err"]
        async with client.get("/q", params={"s": "return select * from items"}) as resp:
            assert resp.status == 504 and "200 ms" in (await resp.json())["err"]
        async with client.get("/health") as resp:  # still serving
            assert resp.status == 200


async def test_every_response_has_a_request_id_and_an_access_log_line(upstream, gateway, caplog):
    upstream.reply("GET", "/items", json_body=[1])
    caplog.set_level(logging.INFO, logger="qlgate.access")
    async with await gateway() as client:
        async with client.get(
            "/q", params={"s": 'return select * from items where q = "x"'}, headers={"request-id": "abc-123"}
        ) as resp:
            assert resp.headers["request-id"] == "abc-123"
        async with client.delete("/health") as resp:
            assert resp.status == 405 and "err" in await resp.json()
    assert upstream.requests[0].headers["request-id"] == "abc-123"
    line = next(r.getMessage() for r in caplog.records if '"path": "/q"' in r.getMessage())
    assert '"request_id": "abc-123"' in line and '"upstream_calls": 1' in line and '"status": 200' in line


def test_the_allow_list_judges_origins_not_whole_urls():
    allow = HostAllowList(("api.example.test:443", "*.ebay.test"))
    assert allow.allows("https://api.example.test/v1?q=1")
    assert allow.allows("HTTPS://api.example.test/other#frag")  # the verdict is per origin, cached
    assert not allow.allows("http://api.example.test/v1")  # port 80 is another origin
    assert allow.allows("http://svcs.ebay.test:8080/x")
    assert not allow.allows("https://evil.test@api.example.test.evil.test/")
    assert allow.allows("https://user@api.example.test/")
    assert not allow.allows("https://api.example.test:99999999/")  # not a port: refused, not an exception
    with pytest.raises(UpstreamNotAllowed, match="intranet:8080"):
        allow.check("http://intranet:8080/admin")
