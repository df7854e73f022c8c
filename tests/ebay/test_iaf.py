"""Trading through an OAuth user token (config ``tables.ebay.trading.auth``: the
``X-EBAY-API-IAF-TOKEN`` header), against the emulator: a request that brings
credentials of its own runs as those, not as the configured user; a token eBay
refuses (HTTP 200, ``Ack`` Failure, 931) is renewed once and the call sent again once."""

from __future__ import annotations

import copy
from pathlib import Path

import aiohttp

from qlgate.engine.engine import Engine

ROOT = Path(__file__).resolve().parents[2]
SELLER = "testuser_magicalbookseller"  # whose refresh token the emulator's ebay.user holds
ADD_ITEM = """r = insert into trading.AddItem values ('<?xml version="1.0" encoding="utf-8"?>
<AddItemRequest xmlns="urn:ebay:apis:eBLBaseComponents">
<Item><Title>Harry Potter and the Philosophers Stone</Title><Description>First book</Description>
<PrimaryCategory><CategoryID>377</CategoryID></PrimaryCategory><StartPrice>1.00</StartPrice>
<ConditionID>3000</ConditionID><Country>US</Country><Currency>USD</Currency><DispatchTimeMax>3</DispatchTimeMax>
<ListingDuration>Days_7</ListingDuration><ListingType>Chinese</ListingType><PostalCode>95125</PostalCode>
<Quantity>1</Quantity><Site>US</Site></Item>
<RequesterCredentials><Username>ql.io-test1</Username><Password>ebay</Password></RequesterCredentials>
</AddItemRequest>');
return select Item.Seller.UserID from trading.GetItem where ItemID = "{r.ItemID}";"""


def config_of(emulator, tmp_path: Path, *, iaf: bool) -> dict:
    config = copy.deepcopy(emulator.config())
    config["oauth"] = {"cacheDir": str(tmp_path / "oauth")}
    if iaf:  # as a config for OAuth Trading reads: no Auth'n'Auth token, the user's OAuth token instead
        del config["tables"]["ebay"]["trading"]["eBayAuthToken"]
        config["tables"]["ebay"]["trading"]["auth"] = "ebay.user"
    return config


async def control(emulator, method: str, path: str) -> object:
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, emulator.base + path, headers=emulator.control_headers()) as resp,
    ):
        assert resp.status == 200, await resp.text()
        return await resp.json()


async def test_an_opaque_body_with_its_own_credentials_runs_as_them(emulator, tmp_path):
    for iaf in (False, True):
        async with Engine(tables=ROOT / "tables", config=config_of(emulator, tmp_path, iaf=iaf)) as engine:
            assert (await engine.execute(ADD_ITEM)).value == ["ql.io-test1"], f"iaf={iaf}"


async def test_statement_credentials_run_as_them_and_none_as_the_configured_user(emulator, tmp_path):
    async with Engine(tables=ROOT / "tables", config=config_of(emulator, tmp_path, iaf=True)) as engine:
        mine = await engine.execute("return select User.UserID from ebay.trading.GetUser")
        assert mine.value == [SELLER]
        theirs = await engine.execute(
            'return select User.UserID from ebay.trading.GetUser where RequesterCredentials.eBayAuthToken = "TEST-TOKEN"'
        )
        assert theirs.value == ["testuser_bountifulbuyer"]


async def test_a_refused_iaf_token_is_renewed_once_and_the_call_sent_again(emulator, tmp_path):
    async with Engine(tables=ROOT / "tables", config=config_of(emulator, tmp_path, iaf=True)) as engine:
        assert (await engine.execute("return select User.UserID from ebay.trading.GetUser")).value == [SELLER]
        assert engine.credentials.requests == 1
        await control(emulator, "POST", "/_sandbox/oauth/expire")
        assert (await engine.execute("return select User.UserID from ebay.trading.GetUser")).value == [SELLER]
        assert engine.credentials.requests == 2  # exactly one renewal
