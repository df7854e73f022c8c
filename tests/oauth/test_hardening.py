"""Credentials under a hostile or careless config and token endpoint: an endpoint that
echoes the Basic header, a token URL that is no URL, an ``expires_in`` of 1e400, a
refresh token file that never ends, a cache directory of a user that does not exist,
and two entries sharing one token while one of them rotates."""

from __future__ import annotations

import asyncio
import json
import logging
import os

import pytest

from qlgate.config import Config
from qlgate.http.client import HttpClient
from qlgate.oauth.client import MAX_LIFETIME, basic_auth
from qlgate.oauth.entries import parse_entry
from qlgate.oauth.errors import AuthConfigError, TokenRequestFailed
from qlgate.oauth.manager import MASKED_PER_CREDENTIAL, TokenManager
from qlgate.oauth.store import TokenStore
from tests.conftest import Reply

QUERY = 'return select * from api.items where q = "x"'


def _text_token(text: str):
    return lambda req, body: Reply(body=text.encode())


async def test_a_token_endpoint_echoing_the_basic_header_shows_no_part_of_it(oauth, oauth_engine, upstream):
    def echo(req, body):
        said = {"error": "invalid_request", "error_description": "you sent " + req.headers["Authorization"]}
        return Reply(status=400, body=json.dumps(said).encode())

    upstream.handler("POST", "/token", echo)
    engine = oauth_engine(entry=oauth.entry(tokenUrl=upstream.base + "/token"))
    with pytest.raises(TokenRequestFailed) as caught:
        await engine.execute(QUERY)
    header = basic_auth(parse_entry("test.app", oauth.entry()))
    encoded = header.removeprefix("Basic ")
    text = json.dumps(caught.value.to_dict())
    assert "you sent" in text and encoded not in text and header not in text
    assert engine.config.secrets.mask(f"x {encoded} y") == "x **** y"  # and it is a config secret


async def test_a_token_url_that_is_not_a_url_is_a_config_error(oauth, oauth_engine):
    engine = oauth_engine(entry=oauth.entry(tokenUrl="http://[::1/token"))
    with pytest.raises(AuthConfigError) as caught:
        await engine.execute(QUERY)
    assert caught.value.details["key"] == "tokenUrl"
    assert not oauth.token_requests


@pytest.mark.parametrize("expires_in", ["1e400", "-5", '"Infinity"', "1" + "0" * 400])
async def test_an_impossible_expires_in_is_refused(oauth, oauth_engine, upstream, expires_in):
    upstream.handler("POST", "/token", _text_token(f'{{"access_token": "tok-abcdefgh", "expires_in": {expires_in}}}'))
    engine = oauth_engine(entry=oauth.entry(tokenUrl=upstream.base + "/token"))
    with pytest.raises(TokenRequestFailed, match="expires_in"):
        await engine.execute(QUERY)


async def test_a_long_expires_in_is_capped_and_the_store_and_status_stay_sane(oauth, upstream, tmp_path):
    upstream.handler("POST", "/token", _text_token('{"access_token": "tok-abcdefgh", "expires_in": 99999999999}'))
    store = tmp_path / "store"
    config = Config.from_dict(
        {"auth": {"a": oauth.entry(tokenUrl=upstream.base + "/token")}, "oauth": {"cacheDir": str(store)}}
    )
    http = HttpClient()
    try:
        manager = TokenManager(config, http)
        assert await manager.access_token("a") == "tok-abcdefgh"
        token = manager._tokens["a"]
        assert token.lifetime == MAX_LIFETIME
        # a store file that says Infinity (written by an older qlgate) is no token at all
        (path,) = store.glob("*.json")
        path.write_text('{"access_token": "tok-abcdefgh", "expires_at": Infinity, "obtained_at": 0}')
        fresh = TokenManager(config, http)
        (row,) = fresh.status()
        assert row["cached"] is False
        assert TokenStore(store).read(path.stem) is None
    finally:
        await http.close()


@pytest.mark.parametrize("kind", ["device", "fifo", "large"])
async def test_a_refresh_token_file_that_is_no_small_file_is_a_config_error(oauth, oauth_engine, tmp_path, kind):
    if kind == "device":
        path = "/dev/zero"
    elif kind == "fifo":
        path = str(tmp_path / "fifo")
        os.mkfifo(path)  # opened for reading, it would wait for a writer
    else:
        path = str(tmp_path / "large")
        with open(path, "wb") as f:
            f.write(b"x" * 70_000)
    entry = oauth.entry("oauth2-refresh-token", refreshToken=None, refreshTokenFile=path)
    engine = oauth_engine(entry=entry)
    with pytest.raises(AuthConfigError) as caught:
        await asyncio.wait_for(engine.execute(QUERY), 5)
    assert caught.value.details["key"] == "refreshTokenFile"
    assert not oauth.token_requests


async def test_a_refresh_token_file_of_a_user_without_a_home_is_a_config_error(oauth, oauth_engine):
    entry = oauth.entry("oauth2-refresh-token", refreshToken=None, refreshTokenFile="~nouser-qlgate-test/x.token")
    with pytest.raises(AuthConfigError) as caught:
        await oauth_engine(entry=entry).execute(QUERY)
    assert caught.value.details["key"] == "refreshTokenFile"


async def test_a_cache_dir_of_a_user_without_a_home_means_no_store(oauth, make_engine, caplog):
    caplog.set_level(logging.WARNING, "qlgate.oauth")
    engine = make_engine(
        {
            "api.ql": "create table api.items on select get from \"{config.base}/api/items?q={q}\" using auth 'a' "
            "resultset 'q'"
        },
        {"base": oauth.base, "auth": {"a": oauth.entry()}, "oauth": {"cacheDir": "~nouser-qlgate-test/x"}},
    )
    assert (await engine.execute(QUERY)).value == "x"
    assert "not used" in caplog.text
    assert engine.credentials.status()[0]["cached"] is True


async def test_a_token_two_entries_share_stays_masked_while_one_of_them_rotates(oauth, tmp_path):
    # two names for one credential: the same endpoint, client, scopes and grant share a cache key
    config = Config.from_dict(
        {"auth": {"a": oauth.entry(), "b": oauth.entry()}, "oauth": {"cacheDir": str(tmp_path / "store")}}
    )
    http = HttpClient()
    try:
        manager = TokenManager(config, http)
        first = await manager.access_token("a")
        assert await manager.access_token("b") == first  # from the store
        current = first
        for _ in range(MASKED_PER_CREDENTIAL + 1):  # 'a' rotates past what it keeps masked
            current = await manager.renew("a", current)
        assert current != first and manager.current("b") == first
        assert config.secrets.mask(f"echo {first}") == "echo ****"  # 'b' still sends it
    finally:
        await http.close()
