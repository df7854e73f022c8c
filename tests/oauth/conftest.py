"""Fixtures of the OAuth tests: the loopback OAuth2 server with its protected API,
and engines whose config names it under ``auth`` with a token store of the test's own."""

from __future__ import annotations

from typing import Any

import pytest

from tests.oauth.oauth_server import OAuthServer

API_TABLE = """create table api.items
  on select get from "{config.base}/api/items?q={q}"
     using auth 'test.app'
     resultset 'q'
"""


@pytest.fixture
async def oauth():
    server = await OAuthServer().start()
    yield server
    await server.stop()


@pytest.fixture
def oauth_engine(oauth, make_engine, tmp_path):
    """An engine with the table ``api.items`` (``using auth 'test.app'``) over the server's API."""

    def build(tables: dict[str, str] | None = None, entry: dict[str, Any] | None = None, **config: Any):
        return make_engine(
            {"api.ql": API_TABLE, **(tables or {})},
            {
                "base": oauth.base,
                "auth": {"test.app": entry if entry is not None else oauth.entry()},
                "oauth": {"cacheDir": str(tmp_path / "store")},
                **config,
            },
        )

    return build
