"""Access tokens never show: not in results (even when the upstream echoes the
Authorization header), errors, diagnostics, describe pages or logs; and the entry's
own secrets (clientSecret, refreshToken) are config secrets."""

from __future__ import annotations

import json
import logging

import pytest

from qlgate.config import Config
from qlgate.errors import QlError
from qlgate.tables.describe import describe_table as describe
from qlgate.trust import Trust
from tests.oauth.oauth_server import CLIENT_SECRET, REFRESH_TOKEN

ECHO_TABLES = {
    "raw.ql": "create table api.raw on select get from \"{config.base}/api/items?q={q}\" using auth 'test.app'",
    "bad.ql": "create table api.bad on select get from \"{config.base}/api/bad?q={q}\" using auth 'test.app'",
}


def _issued(oauth) -> list[str]:
    assert oauth.tokens, "no token was issued: the test would prove nothing"
    return list(oauth.tokens)


async def test_an_echoed_token_is_masked_in_the_result_of_any_script(oauth, oauth_engine, caplog):
    caplog.set_level(logging.DEBUG)
    oauth.echo_authorization = True
    engine = oauth_engine(ECHO_TABLES)
    for trust in (Trust.deployer(), Trust.for_callers(engine.config.data, engine.tables.tables())):
        result = await engine.execute('return select * from api.raw where q = "x"', trust=trust)
        assert result.value["youSent"] == "Bearer ****"
        shown = json.dumps(result.value) + json.dumps(result.diagnostics.to_dict()) + result.diagnostics.render()
        for token in _issued(oauth):
            assert token not in shown
    assert not any(token in record.getMessage() for record in caplog.records for token in oauth.tokens)


async def test_an_echoed_token_is_masked_in_errors_and_warnings(oauth, oauth_engine, caplog):
    caplog.set_level(logging.DEBUG)
    oauth.echo_authorization = True
    engine = oauth_engine(ECHO_TABLES)
    with pytest.raises(QlError) as caught:
        await engine.execute('return select * from api.bad where q = "x"')
    error = caught.value
    assert error.to_dict()["body"]["youSent"] == "Bearer ****"
    shown = json.dumps(error.to_dict()) + json.dumps(error.diagnostics.to_dict() if error.diagnostics else {})
    # a fallback turns the failure into a warning: masked there too
    result = await engine.execute('x = select * from api.bad where q = "y" || "fallback"; return "{x}";')
    shown += json.dumps(result.warnings)
    for token in _issued(oauth):
        assert token not in shown
    assert not any(token in record.getMessage() for record in caplog.records for token in oauth.tokens)


async def test_describe_names_the_credential_and_shows_no_token(oauth, oauth_engine):
    engine = oauth_engine(ECHO_TABLES)
    await engine.execute('return select * from api.raw where q = "x"')
    page = json.dumps(describe(engine.tables.get("api.raw"), engine.routes, engine.config.secrets))
    assert '"auth": "test.app"' in page
    for token in _issued(oauth):
        assert token not in page


def test_the_secrets_of_an_entry_are_config_secrets_and_its_urls_are_not():
    config = Config.from_dict(
        {
            "auth": {
                "x": {
                    "type": "oauth2-refresh-token",
                    "tokenUrl": "https://auth.example/token",
                    "clientId": "my-client",
                    "clientSecret": "${SECRET}",
                    "refreshToken": "${REFRESH}",
                    "refreshTokenFile": "/home/me/.config/qlgate/x.token",
                }
            }
        },
        env={"SECRET": CLIENT_SECRET, "REFRESH": REFRESH_TOKEN},
    )
    shown = config.secrets.mask(json.dumps(config.data))
    assert CLIENT_SECRET not in shown and REFRESH_TOKEN not in shown
    assert "https://auth.example/token" in shown and "/home/me/.config/qlgate/x.token" in shown


def test_a_secret_learnt_at_run_time_is_masked_until_discarded():
    secrets = Config.from_dict({}).secrets
    secrets.add("v^1.1#token/value")
    assert secrets.mask("a v^1.1#token/value b") == "a **** b"
    assert secrets.mask("a v%5E1.1%23token%2Fvalue b") == "a **** b"  # as a URL carries it
    secrets.discard("v^1.1#token/value")
    assert secrets.mask("a v^1.1#token/value b") == "a v^1.1#token/value b"
