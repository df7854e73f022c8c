"""Config ``proxy`` against real servers on 127.0.0.1: a forward proxy (absolute-form HTTP
and CONNECT, optional Basic auth), a plain upstream and a TLS upstream whose CA is made
here (trustme), the engine end to end and ``qlgate run``."""

from __future__ import annotations

import asyncio
import json
import ssl
import sys
from pathlib import Path

import pytest
import trustme
from aiohttp import web

from qlgate.config import Config
from qlgate.errors import ConfigError, UpstreamUnavailable
from qlgate.http.client import HttpClient, HttpRequest
from qlgate.http.proxy import proxy_settings
from tests.conftest import Upstream, run
from tests.http.forward_proxy import ForwardProxy


class TlsUpstream(Upstream):
    """The recording upstream, over TLS with a certificate for 127.0.0.1 and localhost."""

    def __init__(self, context: ssl.SSLContext) -> None:
        super().__init__()
        self.context = context

    async def start(self) -> TlsUpstream:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0, ssl_context=self.context).start()
        self.base = f"https://127.0.0.1:{self._runner.addresses[0][1]}"
        return self


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
async def tls_upstream(ca):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
    server = await TlsUpstream(context).start()
    yield server
    await server.stop()


@pytest.fixture
def trusting(ca) -> ssl.SSLContext:
    context = ssl.create_default_context()
    ca.configure_trust(context)
    return context


@pytest.fixture
async def proxy():
    server = await ForwardProxy().start()
    yield server
    await server.stop()


@pytest.fixture
async def clients():
    made: list[HttpClient] = []

    def make(setting, *, ssl_context: ssl.SSLContext | None = None, env: dict | None = None) -> HttpClient:
        client = HttpClient(proxy=proxy_settings(setting, env or {}), ssl_context=ssl_context)
        made.append(client)
        return client

    yield make
    for client in made:
        await client.close()


def get(url: str, **headers: str) -> HttpRequest:
    return HttpRequest("GET", url, dict(headers))


async def test_plain_http_goes_to_the_proxy_in_absolute_form_over_one_kept_connection(upstream, proxy, clients):
    upstream.reply("GET", "/a", json_body={"ok": 1})
    client = clients(proxy.url)
    for _ in range(3):
        response = await client.send(get(upstream.base + "/a?x=1"))
        assert response.status == 200 and response.body == b'{"ok": 1}' and response.proxy == proxy.url
    assert [(s.method, s.target) for s in proxy.seen] == [("GET", upstream.base + "/a?x=1")] * 3
    assert upstream.paths() == ["/a"] * 3 and upstream.requests[0].query == {"x": "1"}
    assert proxy.connections == 1  # the pooled keep-alive connection to the proxy was reused


async def test_https_goes_through_a_connect_tunnel_and_the_origin_is_verified(tls_upstream, proxy, clients, trusting):
    tls_upstream.reply("GET", "/s", json_body={"tls": True})
    client = clients({"https": proxy.url}, ssl_context=trusting)
    for _ in range(2):
        assert (await client.send(get(tls_upstream.base + "/s"))).body == b'{"tls": true}'
    host_port = tls_upstream.base.removeprefix("https://")
    assert [(s.method, s.target, s.status) for s in proxy.seen] == [("CONNECT", host_port, 200)]  # one tunnel, kept
    assert tls_upstream.paths() == ["/s", "/s"]


async def test_a_tunnel_to_an_origin_the_client_does_not_trust_fails(tls_upstream, proxy, clients):
    tls_upstream.reply("GET", "/s", json_body={})
    client = clients(proxy.url, ssl_context=ssl.create_default_context())  # the system's CAs, not ours
    with pytest.raises(UpstreamUnavailable, match=r"cannot reach https://127\.0\.0\.1.*[Cc]ertificate"):
        await client.send(get(tls_upstream.base + "/s"))
    assert proxy.seen and proxy.seen[0].method == "CONNECT"
    assert not tls_upstream.requests


@pytest.mark.parametrize(
    ("no_proxy", "direct"),
    [
        ("127.0.0.1", {"127.0.0.1"}),
        ("127.0.0.0/8", {"127.0.0.1"}),
        (["10.0.0.0/8", "127.0.0.1/32"], {"127.0.0.1"}),
        ("*", {"127.0.0.1", "localhost"}),
        ("localhost", {"localhost"}),
        (".localhost", {"localhost"}),
        ("*.localhost", {"localhost"}),
        ("localhost:1", set()),
    ],
)
async def test_no_proxy_entries_go_direct(upstream, proxy, clients, no_proxy, direct):
    upstream.reply("GET", "/d", json_body={})
    client = clients({"http": proxy.url, "noProxy": no_proxy})
    port = upstream.base.rpartition(":")[2]
    hosts = ("127.0.0.1", "localhost")
    for host in hosts:
        await client.send(get(f"http://{host}:{port}/d"))
    assert [s.target for s in proxy.seen] == [f"http://{host}:{port}/d" for host in hosts if host not in direct]
    assert len(upstream.requests) == 2


def test_no_proxy_matching_rules():
    settings = proxy_settings(
        {
            "http": "proxy:3128",
            "https": "proxy:3128",
            "noProxy": "corp.example, .int.example,10.0.0.0/8,[::1],b.io:8080",
        },
        {},
    )
    assert settings is not None
    direct = [
        "http://corp.example/",
        "https://api.corp.example/",
        "http://x.int.example/",
        "http://int.example/",
        "http://10.1.2.3:9/",
        "http://[::1]/",
        "http://b.io:8080/",
    ]
    proxied = ["http://notcorp.example/", "http://11.0.0.1/", "http://b.io/", "https://b.io/", "http://10.example/"]
    assert [settings.for_url(u) for u in direct] == [None] * len(direct)
    assert all(settings.for_url(u) is not None for u in proxied)
    assert settings.for_url("https://x/").url == "http://proxy:3128"  # type: ignore[union-attr]


def test_proxy_config_shapes_and_errors():
    both = proxy_settings("http://u:p%40ss@proxy.internal:3128", {})
    assert both is not None and both.http == both.https and both.http is not None
    assert (both.http.url, both.http.username, both.http.password) == ("http://proxy.internal:3128", "u", "p@ss")
    assert proxy_settings(None, {}) is None and proxy_settings("", {}) is None
    assert proxy_settings("env", {}) is None
    env = proxy_settings("env", {"HTTPS_PROXY": "http://e:1", "no_proxy": "a.example"})
    assert env is not None and env.http is None and env.https is not None and env.source == "env"
    assert env.for_url("https://a.example/") is None
    for bad, message in [
        ({"http": "socks5://p:1"}, "only http:// proxies"),
        ({"htps": "http://p:1"}, "unknown keys htps"),
        ({"http": "http://p:1", "noProxy": "10.0.0.0/99"}, "invalid CIDR"),
        ({"http": "http://p:1", "noProxy": "a:port"}, "invalid port"),
        (42, "must be a proxy URL"),
        ("https://user:hunter22@p:1", "only http:// proxies"),
    ]:
        with pytest.raises(ConfigError, match=message) as caught:
            proxy_settings(bad, {})
        assert "hunter22" not in caught.value.message


def test_the_environment_is_read_only_when_the_config_says_env():
    env = {"HTTP_PROXY": "http://env-proxy:3128", "HTTPS_PROXY": "http://env-proxy:3128"}
    assert Config.from_dict({}, env=env).settings.proxy is None
    said = Config.from_dict({"proxy": "env"}, env=env).settings.proxy
    assert said is not None and said.http is not None and said.http.url == "http://env-proxy:3128"
    substituted = Config.from_dict({"proxy": {"https": "${HTTPS_PROXY}"}}, env=env).settings.proxy
    assert substituted is not None and substituted.http is None and substituted.https == said.https


async def test_proxy_credentials_go_to_the_proxy_only_and_are_config_secrets(upstream, tls_upstream, clients, trusting):
    server = await ForwardProxy(credentials=("gw", "s3cret-pass")).start()
    try:
        upstream.reply("GET", "/p", json_body={})
        tls_upstream.reply("GET", "/p", json_body={})
        client = clients(server.url_with("gw", "s3cret-pass"), ssl_context=trusting)
        await client.send(get(upstream.base + "/p"))
        await client.send(get(tls_upstream.base + "/p"))
        assert [s.status for s in server.seen] == [200, 200]
        assert all(s.headers["proxy-authorization"].startswith("Basic ") for s in server.seen)
        assert not any("proxy-authorization" in r.headers for r in upstream.requests + tls_upstream.requests)
        config = Config.from_dict({"proxy": server.url_with("gw", "s3cret-pass")})
        token = server.seen[0].headers["proxy-authorization"].removeprefix("Basic ")
        shown = config.secrets.mask(f"{config.data['proxy']} {token} s3cret-pass")
        assert "s3cret" not in shown and token not in shown and "127.0.0.1" in shown
    finally:
        await server.stop()


@pytest.mark.parametrize("scheme", ["http", "https"])
async def test_a_407_is_a_typed_error_naming_the_proxy_without_its_credentials(
    upstream, tls_upstream, clients, trusting, scheme
):
    server = await ForwardProxy(credentials=("gw", "right")).start()
    try:
        client = clients(server.url_with("gw", "wrong-pass"), ssl_context=trusting)
        base = upstream.base if scheme == "http" else tls_upstream.base
        with pytest.raises(UpstreamUnavailable) as caught:
            await client.send(HttpRequest("GET", base + "/x", {}, retry=True))
        message = caught.value.message
        assert message.startswith(f"proxy {server.url} refused ") and "407" in message
        assert "refused the credentials" in message and "wrong-pass" not in message and "gw:" not in message
        assert len(server.seen) == 1  # not retried
        assert not upstream.requests and not tls_upstream.requests
    finally:
        await server.stop()


async def test_a_connect_refused_with_502_and_a_dead_proxy_are_typed_errors(tls_upstream, clients, trusting):
    server = await ForwardProxy(connect_status=502).start()
    try:
        client = clients(server.url, ssl_context=trusting)
        with pytest.raises(UpstreamUnavailable, match=f"proxy {server.url} refused CONNECT .*: 502"):
            await client.send(get(tls_upstream.base + "/x"))
    finally:
        await server.stop()
    dead = clients("http://user:dead-pass@127.0.0.1:9")
    with pytest.raises(UpstreamUnavailable, match=r"cannot reach proxy http://127.0.0.1:9 \(for http") as caught:
        await dead.send(get(tls_upstream.base.replace("https", "http") + "/x"))
    assert "dead-pass" not in caught.value.message


async def test_each_redirect_hop_decides_by_its_own_host_and_check_url_sees_origins(upstream, proxy, clients):
    port = upstream.base.rpartition(":")[2]
    upstream.reply("GET", "/from", status=302, headers={"Location": f"http://localhost:{port}/to"}, content_type=None)
    upstream.reply("GET", "/to", json_body={"landed": True})
    checked: list[str] = []
    client = clients({"http": proxy.url, "noProxy": "localhost"})
    request = HttpRequest("GET", upstream.base + "/from", {}, check_url=checked.append)
    response = await client.send(request)
    assert response.body == b'{"landed": true}' and response.proxy is None
    assert [s.target for s in proxy.seen] == [upstream.base + "/from"]
    assert checked == [upstream.base + "/from", f"http://localhost:{port}/to"]  # origins, never the proxy


TABLE = "create table items on select get from '{config.base}/items?q={^q}' resultset 'items'"


async def test_engine_table_calls_and_token_requests_go_through_the_proxy(upstream, proxy, make_engine):
    from tests.oauth.oauth_server import OAuthServer

    oauth = await OAuthServer().start()
    try:
        upstream.reply("GET", "/items", json_body={"items": [{"id": 1}]})
        engine = make_engine(
            {"items.ql": TABLE},
            {"base": upstream.base, "proxy": proxy.url, "auth": {"a": oauth.entry()}},
        )
        assert await run(engine, "select id from items where q = 'x'") == [1]
        await engine.access_token("a")
        assert [(s.method, s.target) for s in proxy.seen] == [
            ("GET", upstream.base + "/items?q=x"),
            ("POST", oauth.base + "/token"),
        ]
    finally:
        await oauth.stop()


async def test_qlgate_run_with_a_config_proxy(upstream, tls_upstream, proxy, ca, tmp_path: Path):
    upstream.reply("GET", "/items", json_body={"items": [{"id": 7}]})
    tls_upstream.reply("GET", "/items", json_body={"items": [{"id": 8}]})
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "items.ql").write_text(TABLE)
    (tables / "secure.ql").write_text(TABLE.replace("items on", "secure on").replace("config.base", "config.tls"))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"base": upstream.base, "tls": tls_upstream.base, "proxy": proxy.url}))
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    script = (
        "a = select id from items where q = 'x'; b = select id from secure where q = 'y'; return [\"{a}\", \"{b}\"];"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "qlgate", "run", "-e", script, "--tables", str(tables), "--config", str(config)),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "SSL_CERT_FILE": str(ca_file), "HTTP_PROXY": "http://127.0.0.1:9"},
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    assert json.loads(out) == [[7], [8]]
    assert sorted(s.method for s in proxy.seen) == [
        "CONNECT",
        "GET",
    ]  # config's proxy, not the environment's (in either order: the selects run at once)
