"""Gateway limits, each with a safe default: body size, script length, total
time, and which upstreams ad-hoc scripts may reach (no SSRF)."""

import asyncio
import json
import logging

import aiohttp
import pytest

from qlgate.diagnostics import CallRecord, Diagnostics
from qlgate.server.accesslog import upstream as _upstream
from qlgate.server.app import build_app
from qlgate.trust import HostAllowList, UpstreamNotAllowed
from tests.gateway_server import GatewayTestServer

TABLES = {"items.ql": "create table items on select get from '{config.base}/items?q={q}'"}


@pytest.fixture
async def gateway(engine_for):
    """Start a gateway with the given config; returns a client session for it."""
    servers = []

    async def start(config=None, **kw):
        server = GatewayTestServer(build_app(engine_for(TABLES, config=config, **kw)), host="127.0.0.1")
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


async def test_a_misspelt_where_name_is_a_400_naming_the_parameter_meant_before_anything_is_sent(upstream, gateway):
    async with await gateway() as client:
        script = (
            "create table shop on select get from '"
            + upstream.base
            + "/items?q={q}'; return select * from shop where qq = 'x'"
        )
        async with client.get("/q", params={"s": script}) as resp:
            body = await resp.json()
    assert resp.status == 400 and body["type"] == "UnknownParameter" and body["suggestion"] == "q"
    assert "'qq' is not a parameter of shop; did you mean 'q'?" in body["err"]
    assert upstream.paths() == []


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
    (line,) = access_lines(caplog)
    assert (line["request_id"], line["upstream_calls"], line["status"]) == ("abc-123", 1, 200)
    assert (line["cache_hits"], line["shared"]) == (0, 0) and "waited_ms" not in line


def access_lines(caplog, path: str = "/q") -> list[dict]:
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "qlgate.access"]
    return [line for line in lines if line["path"] == path]


async def test_the_access_log_counts_calls_sent_upstream_not_cache_hits(upstream, gateway, caplog):
    upstream.reply("GET", "/items", json_body=[1])
    caplog.set_level(logging.INFO, logger="qlgate.access")
    script = 'return select * from items where q = "cached" expires 60'
    async with await gateway() as client:
        for _ in range(2):
            async with client.get("/q", params={"s": script}) as resp:
                assert resp.status == 200 and await resp.json() == [1]
    assert upstream.paths() == ["/items"]
    first, second = access_lines(caplog)
    assert (first["upstream_calls"], first["cache_hits"], first["shared"]) == (1, 0, 0)
    assert (second["upstream_calls"], second["cache_hits"], second["shared"]) == (0, 1, 0)
    assert not {"waited_ms", "queued_ms"} & (first.keys() | second.keys())


async def test_the_access_log_counts_a_call_shared_with_another_request(upstream, gateway, caplog):
    upstream.reply("GET", "/items", json_body=[2], delay=0.3)
    caplog.set_level(logging.INFO, logger="qlgate.access")
    script = 'return select * from items where q = "together"'
    async with await gateway() as client:

        async def one() -> None:
            async with client.get("/q", params={"s": script}) as resp:
                assert resp.status == 200 and await resp.json() == [2]

        await asyncio.gather(one(), one())
    assert upstream.paths() == ["/items"]
    counts = sorted((line["upstream_calls"], line["shared"], line["cache_hits"]) for line in access_lines(caplog))
    assert counts == [(0, 1, 0), (1, 0, 0)]


def test_the_access_log_has_waits_only_when_calls_waited():
    diagnostics = Diagnostics()
    assert _upstream(None) == {"upstream_calls": 0, "cache_hits": 0, "shared": 0}
    assert _upstream(diagnostics) == {"upstream_calls": 0, "cache_hits": 0, "shared": 0}
    diagnostics.calls += [
        CallRecord("t", "GET", "http://x/1", 0.0, 0.1, waited=0.25, wait="backoff"),
        CallRecord("t", "GET", "http://x/2", 0.0, 0.1, source="cache"),
        CallRecord("t", "GET", "http://x/3", 0.0, 0.1, source="coalesced"),
    ]
    diagnostics.calls[0].queued = 0.0125  # time queued for an API type's limits
    fields = _upstream(diagnostics)
    assert fields["upstream_calls"] == 1 and fields["cache_hits"] == 1 and fields["shared"] == 1
    assert fields["waited_ms"] == 250.0
    assert fields["queued_ms"] == 12.5


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


def test_a_refusal_names_the_list_that_refuses_even_when_the_config_sets_none():
    """With gateway.adhoc.allowedHosts unset, callers reach the tables' hosts: a refusal
    that said "not in gateway.adhoc.allowedHosts" sent people looking for a key they never set."""
    from qlgate.trust import Trust

    table = type(
        "T", (), {"mappings": {"select": type("M", (), {"uri": type("U", (), {"raw": "https://api.shop.test/x"})})}}
    )
    unset = Trust.for_callers({}, [table]).allowed_hosts
    assert unset is not None
    with pytest.raises(UpstreamNotAllowed) as info:
        unset.check("http://intranet:8080/admin")
    assert "gateway.adhoc.allowedHosts is not set" in info.value.message and "api.shop.test" in info.value.message
    configured = Trust.for_callers({"gateway": {"adhoc": {"allowedHosts": ["a.test"]}}}, [table]).allowed_hosts
    assert configured is not None
    with pytest.raises(UpstreamNotAllowed, match="it is not in gateway.adhoc.allowedHosts$"):
        configured.check("http://intranet:8080/admin")
    # a job's recorded list within this gateway's own unset one: the unset one refuses
    narrowed = HostAllowList(("intranet:8080",), within=unset)
    with pytest.raises(UpstreamNotAllowed, match="is not set"):
        narrowed.check("http://intranet:8080/admin")
