"""A config ``auth`` entry that is missing or malformed is a typed error naming the
entry and the key when a table first uses it, and nothing is sent."""

from __future__ import annotations

import pytest

from qlgate.oauth.entries import entry_of
from qlgate.oauth.errors import AuthConfigError


@pytest.mark.parametrize(
    "change, key",
    [
        ({"tokenUrl": None}, "tokenUrl"),
        ({"tokenUrl": "ftp://x/token"}, "tokenUrl"),
        ({"clientId": ""}, "clientId"),
        ({"clientSecret": None}, "clientSecret"),
        ({"type": "oauth2-password"}, "type"),
        ({"scopes": [1, 2]}, "scopes"),
        ({"clientSecrets": "x"}, "clientSecrets"),  # a misspelt key, not silently ignored
    ],
)
async def test_a_malformed_entry_is_a_typed_error_naming_it_and_the_key(oauth, oauth_engine, change, key):
    entry = {k: v for k, v in {**oauth.entry(), **change}.items() if v is not None}
    engine = oauth_engine(entry=entry)
    with pytest.raises(AuthConfigError) as caught:
        await engine.execute('return select * from api.items where q = "x"')
    error = caught.value
    assert "'test.app'" in error.message and key in error.message
    assert error.details["key"] == key and error.status == 500
    assert not oauth.token_requests and not oauth.api_calls


async def test_a_table_naming_an_entry_the_config_lacks_is_a_typed_error(oauth, make_engine, tmp_path):
    from tests.oauth.conftest import API_TABLE

    engine = make_engine({"api.ql": API_TABLE}, {"base": oauth.base, "auth": {"other": oauth.entry()}})
    with pytest.raises(AuthConfigError, match=r"no config auth entry 'test.app'.*entries: other"):
        await engine.execute('return select * from api.items where q = "x"')
    assert not oauth.api_calls


async def test_a_user_entry_without_its_refresh_token_says_how_to_get_one(oauth, oauth_engine, tmp_path):
    engine = oauth_engine(entry=oauth.entry("oauth2-refresh-token", refreshToken=""))
    with pytest.raises(AuthConfigError, match=r"refreshToken .*qlgate auth login test.app"):
        await engine.execute('return select * from api.items where q = "x"')
    missing = tmp_path / "nowhere" / "user.token"
    engine = oauth_engine(entry=oauth.entry("oauth2-refresh-token", refreshToken=None, refreshTokenFile=str(missing)))
    with pytest.raises(AuthConfigError, match=r"refreshTokenFile .*does not exist: run `qlgate auth login test.app`"):
        await engine.execute('return select * from api.items where q = "x"')


async def test_the_refresh_token_file_is_read_when_a_token_is_fetched(oauth, oauth_engine, tmp_path):
    from tests.oauth.oauth_server import REFRESH_TOKEN

    file = tmp_path / "user.token"
    file.write_text(REFRESH_TOKEN + "\n")
    engine = oauth_engine(entry=oauth.entry("oauth2-refresh-token", refreshToken=None, refreshTokenFile=str(file)))
    assert (await engine.execute('return select * from api.items where q = "x"')).value == "x"
    assert oauth.token_requests[0]["refresh_token"] == REFRESH_TOKEN


def test_login_needs_the_consent_endpoint_and_a_user_entry():
    base = {"tokenUrl": "https://a/token", "clientId": "c", "clientSecret": "s"}
    with pytest.raises(AuthConfigError, match="authorizeUrl"):
        entry_of({"auth": {"u": {**base, "type": "oauth2-refresh-token"}}}, "u", login=True)
    with pytest.raises(AuthConfigError, match="is for oauth2-refresh-token entries"):
        entry_of(
            {"auth": {"u": {**base, "type": "oauth2-client-credentials", "authorizeUrl": "https://a/auth"}}},
            "u",
            login=True,
        )
    entry = entry_of(
        {"auth": {"u": {**base, "type": "oauth2-refresh-token", "authorizeUrl": "https://a/a", "ruName": "Me-1"}}},
        "u",
        login=True,
    )
    assert entry.login_redirect == "Me-1"
