"""The outbound client against a real loopback server: redirects, idle timeouts,
size caps, content encodings and retries."""

import pytest

from qlgate.errors import UpstreamTimeout, UpstreamUnavailable
from qlgate.http.client import HttpClient, HttpRequest


@pytest.fixture
async def client():
    c = HttpClient(max_response_bytes=1000)
    yield c
    await c.close()


def get(upstream, path, **kw):
    return HttpRequest("GET", upstream.base + path, {}, **kw)


async def test_keep_alive_pool_reuses_connections(upstream, client):
    upstream.reply("GET", "/a", json_body={"ok": 1})
    for _ in range(5):
        response = await client.send(get(upstream, "/a"))
        assert response.status == 200 and response.body == b'{"ok": 1}'
    assert len({r.headers.get("host") for r in upstream.requests}) == 1
    assert client.pool.idle_count() == 1 and client.pool.open_count == 1  # one idle keep-alive connection


async def test_only_the_headers_a_request_carries_go_out(upstream, client):
    upstream.reply("*", "/h", json_body={})
    own = {"user-agent": "qlgate/x", "accept": "application/json", "accept-encoding": "gzip"}
    await client.send(HttpRequest("GET", upstream.base + "/h", own))
    await client.send(HttpRequest("GET", upstream.base + "/h", {}))  # as after a patch took them away
    await client.send(HttpRequest("POST", upstream.base + "/h", {}, b"x"))
    first, bare, post = upstream.requests
    assert {k: first.headers[k] for k in own} == own
    assert not {"user-agent", "accept", "accept-encoding", "content-type"} & (set(bare.headers) | set(post.headers))


async def test_relative_redirects_are_followed_for_get(upstream, client):
    upstream.reply("GET", "/old", status=301, headers={"Location": "/new"}, content_type=None)
    upstream.reply("GET", "/new", json_body={"moved": True})
    response = await client.send(get(upstream, "/old"))
    assert response.body == b'{"moved": true}' and response.redirects == [upstream.base + "/old"]


async def test_redirect_loops_and_missing_location_fail(upstream, client):
    upstream.reply("GET", "/loop", status=302, headers={"Location": "/loop"}, content_type=None)
    upstream.reply("GET", "/bare", status=302, content_type=None)
    with pytest.raises(UpstreamUnavailable, match="too many redirects"):
        await client.send(get(upstream, "/loop"))
    assert len(upstream.requests) == 11
    with pytest.raises(UpstreamUnavailable, match="no Location"):
        await client.send(get(upstream, "/bare"))


async def test_posts_do_not_follow_redirects(upstream, client):
    upstream.reply("POST", "/p", status=303, headers={"Location": "/else"}, content_type=None)
    response = await client.send(HttpRequest("POST", upstream.base + "/p", {}, b"x"))
    assert response.status == 303


async def test_idle_timeout_and_one_retry_for_reads(upstream, client):
    upstream.reply("GET", "/slow", json_body={}, delay=0.5)
    with pytest.raises(UpstreamTimeout, match="timed out after 100 ms"):
        await client.send(get(upstream, "/slow", timeout_ms=100, retry=True))
    assert len(upstream.requests) == 2


async def test_responses_over_the_limit_fail(upstream, client):
    upstream.reply("GET", "/big", body=b"x" * 2000)
    with pytest.raises(UpstreamUnavailable, match="1000-byte limit"):
        await client.send(get(upstream, "/big"))


async def test_gzip_and_deflate_are_decoded_and_bombs_are_capped(upstream, client):
    upstream.reply("GET", "/gz", text="hello", encoding="gzip")
    upstream.reply("GET", "/df", text="hello", encoding="deflate")
    upstream.reply("GET", "/bomb", body=b"0" * 100_000, encoding="gzip")
    assert (await client.send(get(upstream, "/gz"))).body == b"hello"
    assert (await client.send(get(upstream, "/df"))).body == b"hello"
    with pytest.raises(UpstreamUnavailable, match="exceeds"):
        await client.send(get(upstream, "/bomb"))


async def test_unknown_content_encoding_fails(upstream, client):
    upstream.reply("GET", "/br", body=b"??", headers={"Content-Encoding": "br"})
    with pytest.raises(UpstreamUnavailable, match="unsupported content encoding 'br'"):
        await client.send(get(upstream, "/br"))


async def test_connection_refused_is_a_typed_error(client):
    with pytest.raises(UpstreamUnavailable, match="cannot reach"):
        await client.send(HttpRequest("GET", "http://127.0.0.1:9/", {}))
