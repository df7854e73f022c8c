"""The emulator checks what eBay checks and answers failures eBay's way."""

import aiohttp
import pytest

from qlgate.ebay.status import EbayError
from qlgate.http.xml import xml_to_json

TRADING = {"X-EBAY-API-COMPATIBILITY-LEVEL": "737", "X-EBAY-API-SITEID": "0"}


def doc(call, inner, token="TEST-TOKEN"):
    creds = f"<RequesterCredentials><eBayAuthToken>{token}</eBayAuthToken></RequesterCredentials>" if token else ""
    return f'<{call}Request xmlns="urn:ebay:apis:eBLBaseComponents">{creds}{inner}</{call}Request>'


@pytest.fixture
async def trading(emulator):
    async with aiohttp.ClientSession() as session:

        async def call(name, inner="", token="TEST-TOKEN", headers=None, body=None):
            hdrs = {**TRADING, "X-EBAY-API-CALL-NAME": name, **(headers or {})}
            async with session.post(
                emulator.base + "/ws/api.dll", data=body or doc(name, inner, token), headers=hdrs
            ) as resp:
                assert resp.status == 200
                return xml_to_json(await resp.text())[f"{name}Response"]

        yield call


def error_code(response):
    errors = response["Errors"]
    return (response["Ack"], (errors[0] if isinstance(errors, list) else errors)["ErrorCode"])


async def test_auth_root_element_and_call_checks(trading):
    assert error_code(await trading("GetItem", "<ItemID>1</ItemID>", token="WRONG")) == ("Failure", 931)
    assert error_code(await trading("AddItem", body=doc("SetNotificationPreferences", ""))) == ("Failure", 10012)
    assert error_code(await trading("GetItem", body="<not xml")) == ("Failure", 5)
    assert error_code(await trading("GetNoSuchThing")) == ("Failure", 2)
    assert error_code(await trading("GetItem", headers={"X-EBAY-API-APP-NAME": "NOPE"})) == ("Failure", 10017)


async def test_required_fields_are_checked(trading):
    item = (
        "<Item><Title>T</Title><PrimaryCategory><CategoryID>377</CategoryID></PrimaryCategory>"
        "<StartPrice>1.00</StartPrice><Country>US</Country><ListingDuration>Days_7</ListingDuration></Item>"
    )
    failed = await trading("AddItem", item)
    assert error_code(failed) == ("Failure", 37)
    assert failed["Errors"]["ErrorParameters"]["Value"] == "Item.Currency"
    verified = await trading("VerifyAddItem", item.replace("<Country>", "<Currency>USD</Currency><Country>"))
    assert verified["Ack"] == "Success" and verified["ItemID"] == 0


async def test_state_is_consistent_across_calls(trading, emulator):
    item = (
        "<Item><Title>Blue Kettle</Title><PrimaryCategory><CategoryID>20625</CategoryID></PrimaryCategory>"
        "<StartPrice>10.00</StartPrice><Currency>USD</Currency><Country>US</Country>"
        "<ListingDuration>Days_3</ListingDuration></Item>"
    )
    listed = await trading("AddItem", item, token="SELLER-AUTH-TOKEN-HERE")
    item_id = str(listed["ItemID"])
    found = await trading("GetItem", f"<ItemID>{item_id}</ItemID>")
    assert found["Item"]["Title"] == "Blue Kettle"
    assert [i.item_id for i in emulator.sandbox.market.search(keywords="kettle")] == [item_id]
    assert (await trading("AddToWatchList", f"<ItemID>{item_id}</ItemID>"))["WatchListCount"] == 1
    assert (await trading("AddToWatchList", f"<ItemID>{item_id}</ItemID>"))["WatchListCount"] == 1  # no double count
    buying = await trading("GetMyeBayBuying", "<WatchList><Include>true</Include></WatchList>")
    assert buying["WatchList"]["ItemArray"]["Item"]["ItemID"] == int(item_id)
    own = await trading(
        "PlaceOffer",
        f"<Offer><Action>Bid</Action><MaxBid>20</MaxBid><Quantity>1</Quantity></Offer><ItemID>{item_id}</ItemID>",
        token="SELLER-AUTH-TOKEN-HERE",
    )
    assert error_code(own) == ("Failure", 12011)
    low = await trading(
        "PlaceOffer",
        f"<Offer><Action>Bid</Action><MaxBid>5</MaxBid><Quantity>1</Quantity></Offer><ItemID>{item_id}</ItemID>",
    )
    assert error_code(low) == ("Failure", 12016)
    ended = await trading(
        "EndItem",
        f"<ItemID>{item_id}</ItemID><EndingReason>NotAvailable</EndingReason>",
        token="SELLER-AUTH-TOKEN-HERE",
    )
    assert ended["Ack"] == "Success"
    late = await trading(
        "PlaceOffer",
        f"<Offer><Action>Bid</Action><MaxBid>50</MaxBid><Quantity>1</Quantity></Offer><ItemID>{item_id}</ItemID>",
    )
    assert error_code(late) == ("Failure", 12302)
    assert emulator.sandbox.market.search(keywords="kettle") == []


async def test_finding_framework_error_and_json(emulator):
    async with aiohttp.ClientSession() as session:
        url = emulator.base + "/services/search/FindingService/v1"
        async with session.get(
            url, params={"OPERATION-NAME": "findItemsByKeywords", "SECURITY-APPNAME": "BAD", "keywords": "iphone"}
        ) as resp:
            assert resp.status == 500 and "Invalid Application: BAD" in await resp.text()
        async with session.get(
            url,
            params={
                "OPERATION-NAME": "findItemsByKeywords",
                "SECURITY-APPNAME": "TEST-APPNAME",
                "RESPONSE-DATA-FORMAT": "JSON",
                "keywords": "iphone",
                "paginationInput.entriesPerPage": "2",
            },
        ) as resp:
            body = await resp.json()
        response = body["findItemsByKeywordsResponse"][0]
        assert response["ack"] == ["Success"] and response["searchResult"][0]["@count"] == "2"
        total = len(emulator.sandbox.market.search(keywords="iphone"))
        assert total > 2 and response["paginationOutput"][0]["totalEntries"] == [str(total)]
        assert len(response["searchResult"][0]["item"]) == 2


async def test_injected_latency_and_failures(emulator, ebay):
    async with aiohttp.ClientSession() as session:
        await session.put(
            emulator.base + "/_sandbox/faults",
            json={"GeteBayTime": {"fail": "ack", "times": 1}, "GetUserProfile": {"latency_ms": 120}},
            headers=emulator.control_headers(),
        )
    with pytest.raises(EbayError, match="eBay answered Failure"):
        await ebay.execute("select * from ebay.shopping.GeteBayTime")
    assert (await ebay.execute("select * from ebay.shopping.GeteBayTime")).value["Ack"] == "Success"
    result = await ebay.execute('select * from ebay.shopping.GetUserProfile where UserID = "testuser_bountifulbuyer"')
    assert result.diagnostics.calls[0].duration >= 0.12
