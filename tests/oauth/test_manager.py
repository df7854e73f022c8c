"""OAuth2 credentials through the engine, against the loopback OAuth2 server: the
bearer token a ``using auth`` table sends, its cache, one token request for many
waiting calls, one renewal for many refused calls, and a patch's ``ctx.access_token``."""

from __future__ import annotations

import asyncio

import pytest

from qlgate.errors import UpstreamError
from tests.oauth.oauth_server import SCOPES


async def test_a_table_using_auth_sends_the_bearer_token_of_its_entry(oauth, oauth_engine):
    engine = oauth_engine()
    assert (await engine.execute('return select * from api.items where q = "camera"')).value == "camera"
    (form,) = oauth.token_requests
    assert form == {"grant_type": "client_credentials", "scope": " ".join(SCOPES)}
    (sent,) = oauth.api_calls
    assert sent in oauth.tokens


async def test_a_refresh_token_entry_asks_with_its_refresh_token(oauth, oauth_engine):
    engine = oauth_engine(entry=oauth.entry("oauth2-refresh-token"))
    assert (await engine.execute('return select * from api.items where q = "x"')).value == "x"
    (form,) = oauth.token_requests
    assert form["grant_type"] == "refresh_token" and form["refresh_token"] in oauth.refresh_tokens


async def test_the_token_is_kept_across_calls_runs_and_engines(oauth, oauth_engine):
    engine = oauth_engine()
    for q in ("a", "b", "c"):
        await engine.execute(f'return select * from api.items where q = "{q}"')
    assert len(oauth.token_requests) == 1
    # another engine (another process of the gateway) on the same store takes it from there
    other = oauth_engine()
    await other.execute('return select * from api.items where q = "d"')
    assert len(oauth.token_requests) == 1
    assert len(set(oauth.api_calls)) == 1


async def test_a_token_near_its_expiry_is_replaced_before_it_is_sent(oauth, oauth_engine):
    oauth.lifetime = 1  # renewed 0.1 s early (a tenth of its lifetime)
    engine = oauth_engine()
    await engine.execute('return select * from api.items where q = "a"')
    await asyncio.sleep(1.0)
    await engine.execute('return select * from api.items where q = "b"')
    assert len(oauth.token_requests) == 2
    assert oauth.api_calls[0] != oauth.api_calls[1]
    assert len(oauth.api_calls) == 2  # no call went out with the old one and came back 401


@pytest.mark.parametrize("shared", [True, False], ids=["store", "no-store"])
async def test_fifty_concurrent_calls_on_a_cold_token_make_one_token_request(oauth, oauth_engine, shared):
    oauth.delay = 0.3  # every call asks while the first request is still out
    engine = oauth_engine(**({} if shared else {"oauth": {"cacheDir": False}}))
    values = [f"v{i}" for i in range(50)]
    results = await asyncio.gather(*(engine.execute(f'return select * from api.items where q = "{v}"') for v in values))
    assert [r.value for r in results] == values
    assert len(oauth.token_requests) == 1
    assert len(oauth.api_calls) == 50 and len(set(oauth.api_calls)) == 1


async def test_a_fan_out_on_a_cold_token_makes_one_token_request(oauth, oauth_engine):
    oauth.delay = 0.2
    engine = oauth_engine(oauth={"cacheDir": False})
    values = ", ".join(f'"v{i}"' for i in range(50))
    result = await engine.execute(f"return select * from api.items where q in ({values})")
    assert [c.status for c in result.diagnostics.calls] == [200] * 50
    assert len(oauth.token_requests) == 1


SCRIPT_ACROSS_EXPIRY = """
a = select * from api.items where q = "one";
e = select * from api.expire where q = "{a}";
return select q from api.raw where q in ("{e}-1", "{e}-2", "{e}-3", "{e}-4", "{e}-5", "{e}-6", "{e}-7", "{e}-8");
"""
EXPIRE_TABLE = """create table api.expire
  on select get from "{config.base}/api/expire?q={q}"
     using auth 'test.app'
     resultset 'q'
"""
RAW_TABLE = """create table api.raw
  on select get from "{config.base}/api/items?q={q}"
     using auth 'test.app'
"""


async def test_a_token_expiring_mid_script_is_renewed_once_and_no_call_fails(oauth, oauth_engine):
    """The server expires every token after ``api.expire`` answers: the eight calls after
    it are refused (eBay's 401, errorId 1001) with the same token, and make one refresh."""
    engine = oauth_engine({"expire.ql": EXPIRE_TABLE, "raw.ql": RAW_TABLE})
    result = await engine.execute(SCRIPT_ACROSS_EXPIRY)
    assert sorted(result.value) == [f"one-{i}" for i in range(1, 9)], result.value
    assert not result.warnings
    assert len(oauth.token_requests) == 2
    first, second = (t for t in oauth.tokens)
    assert oauth.api_calls.count(second) == 8
    assert oauth.api_calls.count(first) == 2 + 8  # a, e, and the eight refused calls
    refused = [c for c in result.diagnostics.calls if c.status == 401]
    assert len(refused) == 8


async def test_a_refused_token_is_renewed_once_by_the_concurrent_runs_that_sent_it(oauth, oauth_engine):
    engine = oauth_engine()
    await engine.execute('return select * from api.items where q = "warm"')
    oauth.expire_all()
    oauth.delay = 0.2
    results = await asyncio.gather(
        *(engine.execute(f'return select * from api.items where q = "r{i}"') for i in range(20))
    )
    assert [r.value for r in results] == [f"r{i}" for i in range(20)]
    assert len(oauth.token_requests) == 2


async def test_a_401_that_is_not_about_the_token_is_not_retried(oauth, oauth_engine):
    engine = oauth_engine(
        {"denied.ql": "create table api.denied on select get from \"{config.base}/api/denied\" using auth 'test.app'"}
    )
    with pytest.raises(UpstreamError) as caught:
        await engine.execute("return select * from api.denied")
    assert caught.value.details["upstream_status"] == 401
    assert len(oauth.token_requests) == 1 and len(oauth.api_calls) == 1


PATCHED_TABLE = """create table api.iaf
  on select get from "{config.base}/api/items?q={q}"
     using patch 'iaf.py'
     resultset 'q'
"""
IAF_PATCH = """
async def patch_headers(ctx):
    headers = dict(ctx.headers)
    headers["x-ebay-api-iaf-token"] = await ctx.access_token("test.app")
    return headers
"""


async def test_a_patch_gets_a_token_through_ctx_access_token_and_it_is_renewed_too(oauth, oauth_engine):
    engine = oauth_engine({"iaf.ql": PATCHED_TABLE, "iaf.py": IAF_PATCH})
    assert (await engine.execute('return select * from api.iaf where q = "a"')).value == "a"
    oauth.expire_all()
    assert (await engine.execute('return select * from api.iaf where q = "b"')).value == "b"
    assert len(oauth.token_requests) == 2
    assert oauth.api_calls[1] == oauth.api_calls[0] != oauth.api_calls[2]


async def test_the_engine_hands_a_token_to_its_embedding_application(oauth, oauth_engine):
    engine = oauth_engine()
    token = await engine.access_token("test.app")
    assert token in oauth.tokens
    assert engine.config.secrets.mask(f"x{token}y") == "x****y"


async def test_a_late_refusal_of_a_token_already_renewed_fetches_no_other(oauth, oauth_engine):
    """A call refused with the old token after the renewal has landed (here, or in
    another process of the gateway) takes the new token: no second refresh."""
    engine, sibling = oauth_engine(), oauth_engine()  # two processes' engines on one store
    old = await engine.access_token("test.app")
    assert await sibling.access_token("test.app") == old
    oauth.expire_all()
    new = await engine.credentials.renew("test.app", old)
    assert new != old
    assert await engine.credentials.renew("test.app", old) == new
    assert await sibling.credentials.renew("test.app", old) == new  # read from the store
    assert len(oauth.token_requests) == 2
