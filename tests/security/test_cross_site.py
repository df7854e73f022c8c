"""Cross-site safety (issue 13, item 5): a web page a visitor opens cannot make
the visitor's gateway write, read answers through JSONP, or use an open
gateway at all; an open gateway answers loopback clients only."""

from __future__ import annotations

import socket

import aiohttp
import pytest

from qlgate.server.app import build_app
from tests.gateway_server import GatewayTestServer

TABLES = {
    "items.ql": "create table items on select get from '{config.base}/items' "
    "on insert post to '{config.base}/items' using bodyTemplate 'b.mu' type 'application/json'",
    "b.mu": '{"q": "{{params.q}}"}',
}
WRITE = 'insert into items (q) values ("x");'


async def test_get_q_runs_reads_only(gateway, upstream):
    upstream.reply("POST", "/items", json_body={"made": 1})
    inline_post = f"create table w on select post to '{upstream.base}/items'; return select * from w where q = 'x';"
    async with gateway(TABLES) as client:
        for method in ("GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"):
            for script in (WRITE, inline_post):
                async with client.request(method, "/q", params={"s": script}) as resp:
                    assert resp.status == 405 and resp.headers["Allow"] == "POST", (method, script)
                    if method != "HEAD":
                        assert "send it with POST" in (await resp.json())["err"]
        assert upstream.requests == []
        async with client.post("/q", data=WRITE, headers={"Content-Type": "text/plain"}) as resp:
            assert resp.status == 200 and await resp.json() == {"made": 1}
    assert [r.method for r in upstream.requests] == ["POST"]


async def test_q_takes_its_documented_encodings_only(gateway):
    async with gateway(TABLES) as client:
        for data, ctype in (
            ("return 1;", "text/plain"),
            ("s=return+1%3B", "application/x-www-form-urlencoded"),
            ('{"s": "return 1;"}', "application/json"),
        ):
            async with client.post("/q", data=data, headers={"Content-Type": ctype}) as resp:
                assert resp.status == 200 and await resp.json() == 1, ctype
        async with client.post("/q", data="return 1;", headers={"Content-Type": "image/png"}) as resp:
            assert resp.status == 415 and "text/plain" in (await resp.json())["err"]
        async with client.post("/q", data="return 1;", headers={"Content-Type": "text/plain; charset=utf-7x"}) as resp:
            assert resp.status == 415


async def test_jsonp_is_off_by_default_and_never_wraps_writes(gateway, upstream):
    upstream.reply("POST", "/items", json_body={"made": 1})
    routes = {
        "w.ql": f'return {WRITE[:-1]} via route "/make" using method get',
        "r.ql": 'return [1] via route "/read" using method get',
    }
    async with gateway(TABLES, routes=routes) as client:
        async with client.get("/q", params={"s": "return [1];", "callback": "steal"}) as resp:
            assert resp.content_type == "application/json" and await resp.text() == "[1]"
    async with gateway(TABLES, {"gateway": {"jsonp": True}}, routes=routes) as client:
        async with client.get("/q", params={"s": "return [1];", "callback": "cb"}) as resp:
            assert await resp.text() == "cb([1])"
        async with client.get("/read", params={"callback": "cb"}) as resp:
            assert await resp.text() == "cb([1])"
        async with client.get("/make", params={"callback": "cb"}) as resp:  # a route that writes, on GET
            assert resp.status == 200 and resp.content_type == "application/json"
            assert await resp.json() == {"made": 1}


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Host": "evil.example:3000"},  # DNS rebinding: a foreign name that resolves to 127.0.0.1
        {"X-Forwarded-For": "203.0.113.9"},  # a reverse proxy on this host: the client is not local
        {"Host": "127.0.0.1:3000@evil.example"},
    ],
)
async def test_an_open_gateway_refuses_other_sites(gateway, headers):
    async with gateway(TABLES) as client:
        async with client.post("/q", data="return 1;", headers={"Content-Type": "text/plain", **headers}) as resp:
            assert resp.status == 403 and "err" in await resp.json()
        async with client.get("/q", params={"s": "return 1;"}, headers={"Sec-Fetch-Site": "same-origin"}) as resp:
            assert resp.status == 200
        for host in ("localhost:3000", "[::1]:3000", "127.0.0.1"):
            async with client.get("/q", params={"s": "return 1;"}, headers={"Host": host}) as resp:
                assert resp.status == 200, host
        own = {"Origin": str(client._base_url).rstrip("/")}
        async with client.post("/q", data="return 1;", headers={"Content-Type": "text/plain", **own}) as resp:
            assert resp.status == 200


async def test_with_api_keys_other_origins_need_the_key_not_the_origin(gateway):
    """A browser on another site cannot attach our Authorization header without a CORS
    preflight we never grant; a server-side client with the key may send any Origin."""
    keys = {"gateway": {"auth": {"keys": [{"name": "app", "key": "k" * 32, "scopes": ["query"]}]}}}
    async with gateway(TABLES, keys) as client:
        headers = {"Origin": "https://elsewhere.example", "Authorization": "Bearer " + "k" * 32}
        async with client.get("/q", params={"s": "return 1;"}, headers=headers) as resp:
            assert resp.status == 200
        async with client.options(
            "/q", headers={"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "POST"}
        ) as resp:
            assert "Access-Control-Allow-Origin" not in resp.headers


def _own_address() -> str | None:
    """This machine's address on a non-loopback interface (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


async def test_an_open_gateway_answers_loopback_clients_only(make_engine):
    address = _own_address()
    if address is None:
        pytest.skip("this machine has no non-loopback interface to connect from")
    for insecure, expected in ((False, 403), (True, 200)):
        server = GatewayTestServer(build_app(make_engine({}), insecure=insecure), host=address)
        await server.start_server()
        try:
            async with aiohttp.ClientSession() as client:
                async with client.get(server.make_url("/q"), params={"s": "return 1;"}) as resp:
                    assert resp.status == expected
                    if expected == 403:
                        assert "loopback" in (await resp.json())["err"]
        finally:
            await server.close()


async def test_a_web_page_cannot_submit_jobs_or_change_limits(gateway, tmp_path):
    """A form or fetch() from another site can send text/plain without a preflight:
    the jobs API takes JSON only, and an open gateway refuses other origins anyway."""
    from qlgate.jobs.local import LocalJobs

    jobs = LocalJobs(tmp_path / "jobs.sqlite")
    try:
        async with gateway(TABLES, jobs=jobs) as client:
            job = '{"script": "return select * from items;"}'
            for path, method in (("/jobs", "POST"), ("/limits/items", "PUT"), ("/rates/items", "PUT")):
                body = job if path == "/jobs" else '{"limit": 0}' if "limits" in path else '"1/s"'
                async with client.request(method, path, data=body, headers={"Content-Type": "text/plain"}) as resp:
                    assert resp.status == 415 and "application/json" in (await resp.json())["err"], path
                async with client.request(
                    method,
                    path,
                    data=body,
                    headers={"Content-Type": "application/json", "Origin": "https://evil.example"},
                ) as resp:
                    assert resp.status == 403, path
            assert jobs.list() == [] and jobs.limits() == {} and jobs.rates() == {}
    finally:
        jobs.close()


async def test_only_describe_endpoints_become_html_pages(gateway):
    """A route's answer is data a caller may have chosen: even under /api/… and asked
    for as HTML, it stays JSON; the describe pages escape what comes from files."""
    routes = {"echo.ql": 'return {"info": "{msg}"} via route "/api/echo?msg={msg}" using method get'}
    attack = '<meta http-equiv="refresh" content="0;url=https://evil.example/">'
    async with gateway(TABLES, routes=routes) as client:
        async with client.get("/api/echo", params={"msg": attack}, headers={"Accept": "text/html"}) as resp:
            assert resp.content_type == "application/json" and await resp.json() == {"info": attack}
        async with client.get("/tables", headers={"Accept": "text/html"}) as resp:
            assert resp.content_type == "text/html" and "<meta http-equiv" not in await resp.text()
