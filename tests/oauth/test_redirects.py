"""A redirect must not carry the credentials of a ``using auth`` table to another
origin: the bearer token, eBay's IAF header, cookies and any header that holds a
config secret stay behind, while a redirect on the same origin keeps them."""

from __future__ import annotations

import pytest

from tests.conftest import Reply, Upstream

TABLE = """create table hop.items
  on select get from "{config.first}/{path}"
     using headers 'X-Api-Key' = '{config.apiKey}', 'X-EBAY-API-IAF-TOKEN' = 'iaf-value-1234', 'Cookie' = 'c=1'
     using auth 'test.app'
     resultset 'who'
"""
API_KEY = "api-key-k3y-value-0001"


@pytest.fixture
async def second():
    server = await Upstream().start()
    yield server
    await server.stop()


def engine(oauth_engine, upstream):
    return oauth_engine({"hop.ql": TABLE}, first=upstream.base, apiKey=API_KEY)


async def test_a_redirect_to_another_origin_leaves_the_credentials_behind(oauth, oauth_engine, upstream, second):
    upstream.reply("GET", "/away", status=302, headers={"Location": second.base + "/landing"}, content_type=None)
    second.handler("GET", "/landing", lambda req, body: Reply(body=b'{"who": "second"}'))
    result = await engine(oauth_engine, upstream).execute('return select * from hop.items where path = "away"')
    assert result.value == "second"
    (first,) = upstream.requests
    assert first.headers["authorization"].startswith("Bearer ") and first.headers["x-api-key"] == API_KEY
    (landed,) = second.requests
    assert not {"authorization", "x-ebay-api-iaf-token", "cookie", "x-api-key"} & set(landed.headers)
    token = first.headers["authorization"].removeprefix("Bearer ")
    assert all(token not in value and API_KEY not in value for value in landed.headers.values())


async def test_a_redirect_to_another_port_of_the_same_host_is_another_origin(oauth, oauth_engine, upstream, second):
    assert upstream.base.rsplit(":", 1)[0] == second.base.rsplit(":", 1)[0]  # 127.0.0.1 both
    upstream.reply("GET", "/away", status=307, headers={"Location": second.base + "/x"}, content_type=None)
    second.reply("GET", "/x", json_body={"who": "x"})
    await engine(oauth_engine, upstream).execute('return select * from hop.items where path = "away"')
    assert "authorization" not in second.requests[0].headers


async def test_a_redirect_on_the_same_origin_keeps_them(oauth, oauth_engine, upstream):
    upstream.reply("GET", "/moved", status=301, headers={"Location": "/here"}, content_type=None)
    upstream.reply("GET", "/here", json_body={"who": "here"})
    result = await engine(oauth_engine, upstream).execute('return select * from hop.items where path = "moved"')
    assert result.value == "here"
    first, landed = upstream.requests
    for name in ("authorization", "x-api-key", "x-ebay-api-iaf-token", "cookie"):
        assert landed.headers[name] == first.headers[name]
