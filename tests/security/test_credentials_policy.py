"""Callers' scripts and the deployer's credentials: a ``/q`` script (or a job sent over
HTTP) may use through the deployer's tables only the config ``auth`` entries
``gateway.adhoc.credentials`` lists — by default the application's
(``oauth2-client-credentials``), never a user's token, which acts as that seller.
Routes are the deployer's and keep every credential. Against the emulator, through
a real gateway."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from qlgate.engine.engine import Engine
from qlgate.trust import CredentialNotAllowed, Trust
from tests.conftest import served

ROOT = Path(__file__).resolve().parents[2]
INVENTORY = "return select * from ebay.sell.inventory.getInventoryItems"
BROWSE = 'return select itemId from ebay.buy.browse.search where q = "laptop" and limit = "2"'
GET_USER = "return select User.UserID from ebay.trading.GetUser"


@contextlib.asynccontextmanager
async def gateway(emulator, tmp_path: Path, **adhoc: Any):
    config = {**emulator.config(), "oauth": {"cacheDir": str(tmp_path / "oauth")}}
    config["tables"]["ebay"]["trading"]["auth"] = "ebay.user"  # Trading through the seller's IAF token
    if adhoc:
        config["gateway"] = {"adhoc": adhoc}
    async with Engine(tables=ROOT / "tables", routes=ROOT / "routes", config=config) as engine:
        async with served(engine) as session:
            yield session, engine


async def q(session: aiohttp.ClientSession, script: str) -> tuple[int, Any]:
    async with session.post("/q", data=script.encode(), headers={"content-type": "text/plain"}) as resp:
        return resp.status, await resp.json()


async def test_a_callers_script_may_not_act_as_the_seller(emulator, tmp_path):
    async with gateway(emulator, tmp_path) as (gw, engine):
        status, body = await q(gw, INVENTORY)
        assert status == 403, body
        assert "'ebay.user'" in body["err"] and "gateway.adhoc.credentials" in body["err"]
        # a patch asking for the token (Trading's IAF header) is refused when it asks
        status, body = await q(gw, GET_USER)
        assert status == 403 and "'ebay.user'" in body["err"], body
        assert engine.credentials.current("ebay.user") is None  # never even fetched
        # the application's token is the callers' to use
        status, body = await q(gw, BROWSE)
        assert status == 200 and len(body) == 2, body
        # refused when compiled already: nothing of the script runs, not even what comes first
        callers = Trust.for_callers(engine.config.data, [])
        with pytest.raises(CredentialNotAllowed) as caught:
            engine.compile(f"a = {BROWSE.removeprefix('return ')};\n{INVENTORY}", trust=callers)
        assert caught.value.line == 2
        engine.compile(GET_USER, trust=callers)  # a patch's token is refused when it asks (above)


async def test_routes_are_the_deployers_and_keep_the_sellers_token(emulator, tmp_path):
    async with gateway(emulator, tmp_path) as (gw, engine):
        async with gw.get("/ebay/orders") as resp:
            assert resp.status == 200, await resp.text()
        assert engine.credentials.current("ebay.user") is not None


async def test_the_deployer_may_open_the_sellers_token_to_callers(emulator, tmp_path):
    async with gateway(emulator, tmp_path, credentials=["ebay.app", "ebay.user"]) as (gw, _):
        status, body = await q(gw, INVENTORY)
        assert status == 200, body
        status, body = await q(gw, GET_USER)
        assert status == 200 and body == ["testuser_magicalbookseller"], body
    async with gateway(emulator, tmp_path, credentials=[]) as (gw, _):  # or close even the app's
        status, body = await q(gw, BROWSE)
        assert status == 403 and "'ebay.app'" in body["err"], body


def test_the_policy_travels_with_a_job_and_is_narrowed_by_the_worker():
    config = {
        "auth": {
            "a.app": {"type": "oauth2-client-credentials"},
            "a.user": {"type": "oauth2-refresh-token"},
            "broken": "x",
        }
    }
    callers = Trust.for_callers(config, [])
    assert callers.credentials == ("a.app",) and Trust.deployer().credentials is None
    assert callers.to_record()["credentials"] == ["a.app"]
    wide = Trust.for_callers({**config, "gateway": {"adhoc": {"credentials": ["a.app", "a.user"]}}}, [])
    assert wide.narrowed(callers.to_record()).credentials == ("a.app",)
    assert callers.narrowed(wide.to_record()).credentials == ("a.app",)
    assert callers.narrowed({"allowedHosts": None}).credentials == ("a.app",)  # a job recorded before
    with pytest.raises(Exception, match=r"gateway\.adhoc\.credentials"):
        Trust.for_callers({"gateway": {"adhoc": {"credentials": "a.user"}}}, [])
