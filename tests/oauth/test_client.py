"""The token endpoint down, refusing or answering nonsense: a typed error naming the
entry, with the gateway status it deserves, and never the client secret or the
refresh token, even when the endpoint quotes them back."""

from __future__ import annotations

import base64
import socket

import pytest

from qlgate.http.client import HttpResponse
from qlgate.oauth.client import basic_auth
from qlgate.oauth.entries import parse_entry
from qlgate.oauth.errors import TokenRequestFailed
from qlgate.oauth.rejection import token_rejected
from tests.oauth.oauth_server import CLIENT_ID, CLIENT_SECRET, EBAY_401, REFRESH_TOKEN


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _assert_no_secret(error: Exception) -> None:
    text = repr(error.to_dict()) if hasattr(error, "to_dict") else str(error)
    assert CLIENT_SECRET not in text and REFRESH_TOKEN not in text


async def test_a_refused_refresh_token_is_a_401_without_the_secrets(oauth, oauth_engine):
    oauth.refusal = (400, {"error": "invalid_grant", "error_description": f"refresh token {REFRESH_TOKEN} revoked"})
    engine = oauth_engine(entry=oauth.entry("oauth2-refresh-token"))
    with pytest.raises(TokenRequestFailed) as caught:
        await engine.execute('return select * from api.items where q = "x"')
    error = caught.value
    assert error.status == 401 and "invalid_grant" in error.message and "'test.app'" in error.message
    assert "refresh token **** revoked" in error.message
    _assert_no_secret(error)
    assert not oauth.api_calls


async def test_an_endpoint_that_fails_otherwise_is_a_502(oauth, oauth_engine):
    oauth.refusal = (503, {"message": "down for maintenance"})
    engine = oauth_engine()
    with pytest.raises(TokenRequestFailed) as caught:
        await engine.execute('return select * from api.items where q = "x"')
    assert caught.value.status == 502 and "not an OAuth2 token answer" in caught.value.message
    _assert_no_secret(caught.value)


async def test_an_endpoint_that_is_down_is_a_502_naming_it(oauth, oauth_engine):
    url = f"http://127.0.0.1:{_free_port()}/token"
    engine = oauth_engine(entry=oauth.entry(tokenUrl=url))
    with pytest.raises(TokenRequestFailed) as caught:
        await engine.execute('return select * from api.items where q = "x"')
    assert caught.value.status == 502 and url in caught.value.message and "cannot be reached" in caught.value.message
    _assert_no_secret(caught.value)


async def test_a_wrong_client_secret_is_refused_by_the_server_and_said_so(oauth, oauth_engine):
    engine = oauth_engine(entry=oauth.entry(clientSecret="not-the-secret"))
    with pytest.raises(TokenRequestFailed, match="invalid_client") as caught:
        await engine.execute('return select * from api.items where q = "x"')
    assert "not-the-secret" not in caught.value.message


def test_basic_auth_is_the_client_id_and_secret():
    entry = parse_entry(
        "e",
        {"type": "oauth2-client-credentials", "tokenUrl": "https://a/t", "clientId": CLIENT_ID, "clientSecret": "a:b"},
    )
    assert base64.b64decode(basic_auth(entry).removeprefix("Basic ")).decode() == f"{CLIENT_ID}:a%3Ab"


def _response(status: int, body: bytes = b"", **headers: str) -> HttpResponse:
    return HttpResponse(status, {k.replace("_", "-"): v for k, v in headers.items()}, body, "http://x")


def test_which_401s_say_the_token_was_refused():
    import json

    assert token_rejected(_response(401, json.dumps(EBAY_401).encode()))
    assert token_rejected(_response(401, www_authenticate='Bearer realm="x", error="invalid_token"'))
    assert token_rejected(_response(401, b'{"error": "invalid_token"}'))
    assert not token_rejected(_response(401, b'{"errors": [{"errorId": 1100, "message": "Access denied"}]}'))
    assert not token_rejected(_response(401, b"Unauthorized"))
    assert not token_rejected(_response(403, json.dumps(EBAY_401).encode()))
