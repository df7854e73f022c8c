"""The three scenarios of SCENARIOS.md, run from scripts/ebay against the
emulator: every request it received (method, path, headers, XML body) and
every result."""

from pathlib import Path

import pytest
from lxml import etree

from qlgate.errors import QlError

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "ebay"
NS = "{urn:ebay:apis:eBLBaseComponents}"
TRADING_HEADERS = {"x-ebay-api-compatibility-level": "737", "x-ebay-api-siteid": "0", "content-type": "application/xml"}
KEY_HEADERS = {
    "x-ebay-api-app-name": "TEST-APPNAME",
    "x-ebay-api-dev-name": "TEST-DEVNAME",
    "x-ebay-api-cert-name": "TEST-CERTNAME",
}


def children(xml: str) -> list[tuple[str, str]]:
    """(tag path, text) of every leaf, in document order."""
    root = etree.fromstring(xml.encode())
    out = []
    for node in root.iter():
        if len(node) == 0 and node is not root:
            path = "/".join(etree.QName(n).localname for n in reversed(list(node.iterancestors())) if n is not root)
            out.append(((path + "/" if path else "") + etree.QName(node).localname, node.text))
    return out


def check_trading(request, call, *, keys=False):
    assert (request.method, request.path, request.call) == ("POST", "/ws/api.dll", call)
    expected = {**TRADING_HEADERS, "x-ebay-api-call-name": call, **(KEY_HEADERS if keys else {})}
    assert {k: request.headers.get(k) for k in expected} == expected
    if not keys:
        assert "x-ebay-api-app-name" not in request.headers
    assert request.body.startswith('<?xml version="1.0" encoding="utf-8"?>')
    assert etree.fromstring(request.body.encode()).tag == f"{NS}{call}Request"


async def test_scenario_1_watch_then_unwatch(ebay, emulator):
    result = await ebay.execute((SCRIPTS / "scenario1-watch-list.ql").read_text())
    search, add, remove = emulator.sandbox.requests
    assert (search.method, search.path) == ("POST", "/services/search/FindingService/v1")
    assert search.headers["x-ebay-soa-operation-name"] == "findItemsByKeywords"
    assert search.headers["x-ebay-soa-security-appname"] == "TEST-APPNAME"
    assert children(search.body) == [("paginationInput/entriesPerPage", "6"), ("keywords", "iphone5")]
    first = emulator.sandbox.market.search(keywords="iphone5")[0].item_id
    check_trading(add, "AddToWatchList")
    assert children(add.body) == [("RequesterCredentials/eBayAuthToken", "TEST-TOKEN"), ("ItemID", first)]
    check_trading(remove, "RemoveFromWatchList")
    assert children(remove.body) == children(add.body)
    assert remove.body and add is not remove
    assert result.value["Ack"] == "Success" and result.value["WatchListCount"] == 0
    assert [c.url.endswith("/ws/api.dll") for c in result.diagnostics.calls] == [False, True, True]
    calls = result.diagnostics.calls
    assert calls[2].start >= calls[1].end  # the delete waited for the insert


async def test_scenario_2_opaque_listing_then_bid(ebay, emulator):
    script = (SCRIPTS / "scenario2-list-and-bid.ql").read_text()
    result = await ebay.execute(script)
    add_item, offer = emulator.sandbox.requests
    check_trading(add_item, "AddItem", keys=True)
    opaque = script.split("values ('", 1)[1].split("');", 1)[0]
    assert add_item.body == opaque  # byte for byte
    check_trading(offer, "PlaceOffer")
    items = list(emulator.sandbox.market.items.values())  # the catalogue has Harry Potter books too: the newest
    listed = next(i.item_id for i in reversed(items) if i.title.startswith("Harry"))
    assert listed == "110096039601"  # fresh ids start where eBay's sample did
    assert children(offer.body) == [
        ("RequesterCredentials/eBayAuthToken", "TEST-TOKEN"),
        ("ErrorLanguage", "en_US"),
        ("EndUserIP", "192.168.255.255"),
        ("Offer/Action", "Bid"),
        ("Offer/MaxBid", "20.00"),
        ("Offer/Quantity", "1"),
        ("ItemID", listed),
    ]
    status = result.value["SellingStatus"]
    assert status["CurrentPrice"] == {"currencyID": "USD", "$t": 1.0}
    assert status["MinimumToBid"] == {"currencyID": "USD", "$t": 1.25}
    assert status["HighBidder"] == {"UserID": "testuser_bountifulbuyer"}
    item = emulator.sandbox.market.items[listed]
    assert (item.seller, item.title, item.high_bidder) == (
        "testuser_magicalbookseller",
        "Harry Potter and the Philosophers Stone",
        "testuser_bountifulbuyer",
    )


async def test_scenario_3_product_added_then_deleted_by_its_id(ebay, emulator):
    result = await ebay.execute((SCRIPTS / "scenario3-selling-manager-product.ql").read_text())
    add, delete = emulator.sandbox.requests
    check_trading(add, "AddSellingManagerProduct", keys=True)
    assert children(add.body) == [
        ("RequesterCredentials/eBayAuthToken", "TEST-TOKEN"),
        ("Version", "737"),
        ("SellingManagerProductDetails/ProductName", "Harry Potter Book4"),
        ("SellingManagerProductDetails/QuantityAvailable", "50"),
        ("SellingManagerProductDetails/FolderID", "4651612545"),
    ]
    check_trading(delete, "DeleteSellingManagerProduct")
    assert children(delete.body) == [("RequesterCredentials/eBayAuthToken", "TEST-TOKEN"), ("ProductID", "5027985010")]
    assert result.value["DeletedSellingManagerProductDetails"] == {
        "ProductName": "Harry Potter Book4",
        "ProductID": 5027985010,
        "QuantityAvailable": 50,
        "FolderID": 4651612545,
    }
    assert emulator.sandbox.market.products == {}


async def test_a_failed_write_stops_the_writes_after_it(ebay, emulator):
    script = (
        'insert into ebay.trading.AddToWatchList (ItemID) values ("999");\n'
        'return delete from ebay.trading.RemoveFromWatchList where ItemID = "999"'
    )
    with pytest.raises(QlError) as info:
        await ebay.execute(script)
    assert info.value.line == 1 and "17 Error" in info.value.message
    assert [r.call for r in emulator.sandbox.requests] == ["AddToWatchList"]


async def test_a_failed_call_can_be_caught_with_a_fallback(ebay, emulator):
    result = await ebay.execute(
        'x = insert into ebay.trading.AddToWatchList (ItemID) values ("999") || {"watched": false}; return x'
    )
    assert result.value == {"watched": False}
