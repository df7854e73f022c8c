"""The REST journeys end to end against the emulator — through ``qlgate run`` (a real
process) and through the gateway (a real server) — and OAuth2 tokens under
pressure: a token that expires in the middle of a script, and 50 calls on a cold
token. Scripts are the shipped ones in ``scripts/ebay/rest/``, routes the shipped
ones in ``routes/ebay/rest/``."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import aiohttp
import pytest

from qlgate.engine.engine import Engine
from tests.conftest import served

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts" / "ebay" / "rest"


def config_of(emulator, tmp_path: Path) -> dict:
    """The emulator's config, with a token store of this test's own (no token from
    an earlier test or process can be reused)."""
    return {**emulator.config(), "oauth": {"cacheDir": str(tmp_path / "oauth")}}


async def qlgate_run(config: dict, tmp_path: Path, script: str, **variables: str) -> object:
    """``qlgate run SCRIPT --config …`` in a child process; its JSON result."""
    config_file = tmp_path / "config.json"
    config_file.write_text(json.dumps(config))
    args = [str(SCRIPTS / script), "--config", str(config_file)]
    for name, value in variables.items():
        args += ["--var", f"{name}={value}"]
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "qlgate",
        "run",
        *args,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    return json.loads(out)


async def control(emulator, method: str, path: str, body: object = None) -> object:
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, emulator.base + path, json=body, headers=emulator.control_headers()) as resp,
    ):
        assert resp.status == 200, await resp.text()
        return await resp.json()


async def calls_named(emulator, call: str) -> list[dict]:
    return [r for r in await control(emulator, "GET", "/_sandbox/requests") if r["call"] == call]


async def test_search_then_details_through_qlgate_run(emulator, tmp_path):
    found = await qlgate_run(config_of(emulator, tmp_path), tmp_path, "search-and-details.ql", keywords="guitar")
    assert len(found) == 1
    item = found[0]
    assert "guitar" in item["title"].lower()
    assert item["itemId"].startswith("v1|") and float(item["price"]["value"]) > 0
    assert item["seller"] and item["city"]


async def test_a_listing_made_with_the_inventory_api_is_found_by_every_api(emulator, tmp_path):
    config = config_of(emulator, tmp_path)
    listed = await qlgate_run(
        config, tmp_path, "list-an-item.ql", sku="QL-ZEPH-1", title="Zephyrine test camera", price="42.50"
    )
    listing = str(listed["listingId"])
    assert listed["sku"] == "QL-ZEPH-1" and listed["offerId"]
    async with Engine(tables=ROOT / "tables", config=config) as engine:
        browse = await engine.execute('return select itemId, price.value from browse.search where q = "zephyrine";')
        assert browse.value == [[f"v1|{listing}|0", "42.50"]]
        finding = await engine.execute(
            'return select searchResult from finding.findItemsByKeywords where keywords = "zephyrine";'
        )
        (result,) = finding.value
        assert result["count"] == 1 and [str(i["itemId"]) for i in result["item"]] == [listing]  # one hit, a list
        trading = await engine.execute(f'return select Item.Title from trading.GetItem where ItemID = "{listing}";')
        assert trading.value == ["Zephyrine test camera"]


async def test_an_order_is_shipped_through_qlgate_run(emulator, tmp_path):
    config = config_of(emulator, tmp_path)
    listed = await qlgate_run(config, tmp_path, "list-an-item.ql", sku="QL-SHIP-1", title="Shipped lens", price="10")
    order = await control(emulator, "POST", "/_sandbox/purchase", {"itemId": str(listed["listingId"]), "quantity": 2})
    shipped = await qlgate_run(
        config, tmp_path, "ship-an-order.ql", orderId=order["orderId"], carrier="USPS", tracking="9400111"
    )
    assert shipped["lineItems"] == [{"lineItemId": order["lineItemIds"][0], "quantity": 2}]
    async with Engine(tables=ROOT / "tables", config=config) as engine:
        after = await engine.execute(
            f'return select orderFulfillmentStatus from fulfillment.getOrder where orderId = "{order["orderId"]}";'
        )
        assert after.value == ["FULFILLED"]
        tracked = await engine.execute(
            "return select shippingCarrierCode, shipmentTrackingNumber from fulfillment.getShippingFulfillments "
            f'where orderId = "{order["orderId"]}";'
        )
        assert tracked.value == [["USPS", "9400111"]]


async def test_the_rest_routes_search_list_sell_and_ship(emulator, tmp_path):
    config = config_of(emulator, tmp_path)
    async with (
        Engine(tables=ROOT / "tables", routes=ROOT / "routes", config=config) as engine,
        served(engine) as gw,
    ):
        async with gw.get("/ebay/browse/search", params={"q": "laptop", "limit": "3"}) as resp:
            assert resp.status == 200, await resp.text()
            hits = await resp.json()
        assert len(hits) == 3 and all("laptop" in h["title"].lower() for h in hits)
        async with gw.get("/ebay/browse/search", params={"q": "qqqxyzzy"}) as resp:
            assert await resp.json() == []  # no hit is still a list
        async with gw.get(f"/ebay/browse/items/{hits[0]['itemId']}") as resp:
            assert (await resp.json())["title"] == hits[0]["title"]
        listing = {"sku": "R-1", "title": "Route guitar", "price": "120.00", "quantity": 2, "categoryId": "33034"}
        async with gw.post(
            "/ebay/inventory/listings", json={**listing, "condition": "NEW", "description": "From a route"}
        ) as resp:
            assert resp.status == 200, await resp.text()
            listed = await resp.json()
        order = await control(emulator, "POST", "/_sandbox/purchase", {"itemId": str(listed["listingId"])})
        async with gw.get("/ebay/orders", params={"filter": "orderfulfillmentstatus:{NOT_STARTED}"}) as resp:
            open_orders = await resp.json()
        assert [o["orderId"] for o in open_orders] == [order["orderId"]]
        async with gw.post(
            f"/ebay/orders/{order['orderId']}/shipments", json={"carrier": "UPS", "tracking": "1Z999"}
        ) as resp:
            assert resp.status == 200, await resp.text()
        async with gw.get("/ebay/orders", params={"filter": "orderfulfillmentstatus:{FULFILLED}"}) as resp:
            assert [o["orderId"] for o in await resp.json()] == [order["orderId"]]


async def test_a_token_expiring_mid_script_is_renewed_once_and_no_call_fails(emulator, tmp_path):
    config = config_of(emulator, tmp_path)
    # the search takes 300 ms; every token the emulator issued expires while it runs
    await control(emulator, "PUT", "/_sandbox/faults", {"search": {"latency_ms": 300}})
    script = (
        'first = select itemId from browse.search where q = "camera" limit 4;'
        'return select title from browse.getItem where item_id in ("{first}");'
    )
    async with Engine(tables=ROOT / "tables", config=config) as engine:
        running = asyncio.ensure_future(engine.execute(script))
        await asyncio.sleep(0.15)
        await control(emulator, "POST", "/_sandbox/oauth/expire")
        result = await running
    assert len(result.value) == 4 and all(result.value)
    assert len(await calls_named(emulator, "token")) == 2  # the first token, and one renewal
    # the emulator checks a token after the injected latency: the search is refused once and
    # sent again with the renewed token, and the four item calls go out with that one
    assert len(await calls_named(emulator, "search")) == 2
    assert len(await calls_named(emulator, "getItem")) == 4


async def test_fifty_concurrent_requests_on_a_cold_token_make_one_token_request(emulator, tmp_path):
    config = config_of(emulator, tmp_path)
    async with (
        Engine(tables=ROOT / "tables", routes=ROOT / "routes", config=config) as engine,
        served(engine) as gw,
    ):

        async def search(n: int) -> int:
            async with gw.get("/ebay/browse/search", params={"q": "book", "limit": "2", "offset": str(n)}) as resp:
                body = await resp.json()
                assert resp.status == 200, body
                return len(body)

        counts = await asyncio.gather(*(search(n) for n in range(50)))
    assert counts == [2] * 50
    assert len(await calls_named(emulator, "token")) == 1
    assert len(await calls_named(emulator, "search")) == 50


@pytest.mark.parametrize("tampered", ["Bearer not-a-token", None])
async def test_the_emulator_refuses_rest_calls_without_a_valid_token(emulator, tampered):
    headers = {"Authorization": tampered} if tampered else {}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{emulator.base}/buy/browse/v1/item_summary/search?q=camera", headers=headers) as resp,
    ):
        assert resp.status == 401
        assert (await resp.json())["errors"][0]["errorId"] == 1001


async def test_trading_calls_carry_the_oauth_user_token_in_the_iaf_header(emulator, tmp_path):
    config = config_of(emulator, tmp_path)
    trading = config["tables"]["ebay"]["trading"]
    config["tables"]["ebay"]["trading"] = {**trading, "eBayAuthToken": "", "auth": "ebay.user"}
    async with Engine(tables=ROOT / "tables", config=config) as engine:
        me = await engine.execute("return select User.UserID from trading.GetUser;")
        listed = await engine.execute(
            'return insert into trading.AddItem values (\'<AddItemRequest xmlns="urn:ebay:apis:eBLBaseComponents">'
            "<Item><Title>IAF listed</Title><PrimaryCategory><CategoryID>377</CategoryID></PrimaryCategory>"
            "<StartPrice>5.00</StartPrice><Country>US</Country><Currency>USD</Currency><ListingDuration>Days_7"
            "</ListingDuration><ListingType>Chinese</ListingType><Quantity>1</Quantity><Location>San Jose</Location>"
            "</Item></AddItemRequest>');"
        )
    assert me.value == ["testuser_magicalbookseller"]  # the user behind ebay.user's refresh token
    get_user, add_item = await calls_named(emulator, "GetUser"), await calls_named(emulator, "AddItem")
    for call in (*get_user, *add_item):
        assert call["headers"]["x-ebay-api-iaf-token"]
        assert "eBayAuthToken" not in call["body"]  # no Auth'n'Auth token, and the opaque body untouched
    assert emulator.sandbox.market.items[str(listed.value["ItemID"])].seller == "testuser_magicalbookseller"


async def test_one_marketplace_behind_every_api(emulator, tmp_path):
    """A fixed-price item listed through Trading is found by Browse and Finding, shown by
    Browse getItem and Shopping, watched and bought through Trading; the order is the
    seller's in Fulfillment getOrders, and shipping it there is seen by Trading."""
    add = (
        "return insert into trading.AddFixedPriceItem values ('<AddFixedPriceItemRequest "
        'xmlns="urn:ebay:apis:eBLBaseComponents"><RequesterCredentials><eBayAuthToken>SELLER-AUTH-TOKEN-HERE'
        "</eBayAuthToken></RequesterCredentials><Item><Title>Quokkaflex travel tripod</Title>"
        "<PrimaryCategory><CategoryID>30093</CategoryID></PrimaryCategory><StartPrice>35.00</StartPrice>"
        "<Country>US</Country><Currency>USD</Currency><ListingDuration>GTC</ListingDuration>"
        "<ListingType>FixedPriceItem</ListingType><Quantity>3</Quantity><Location>San Jose</Location>"
        "</Item></AddFixedPriceItemRequest>');"
    )
    async with Engine(tables=ROOT / "tables", config=config_of(emulator, tmp_path)) as engine:
        item_id = str((await engine.execute(add)).value["ItemID"])
        browse = await engine.execute('return select itemId, price.value from browse.search where q = "quokkaflex";')
        assert browse.value == [[f"v1|{item_id}|0", "35.00"]]
        details = await engine.execute(
            f'return select title, seller.username from browse.getItem where item_id = "v1|{item_id}|0";'
        )
        assert details.value == [["Quokkaflex travel tripod", "testuser_magicalbookseller"]]
        finding = await engine.execute(
            'return select searchResult from finding.findItemsByKeywords where keywords = "quokkaflex";'
        )
        assert [str(i["itemId"]) for i in finding.value[0]["item"]] == [item_id]
        shopping = await engine.execute(
            f'return select Item.Title from shopping.GetSingleItem where ItemID = "{item_id}";'
        )
        assert shopping.value == ["Quokkaflex travel tripod"]
        watched = await engine.execute(f'return insert into trading.AddToWatchList (ItemID) values ("{item_id}");')
        assert watched.value["Ack"] == "Success"
        bought = await engine.execute(
            "return insert into trading.PlaceOffer (ItemID, Offer.Action, Offer.MaxBid, Offer.Quantity) "
            f'values ("{item_id}", "Purchase", "35.00", "2");'
        )
        assert bought.value["Ack"] == "Success"
        orders = await engine.execute(
            "return select orderId, buyer.username, lineItems from fulfillment.getOrders "
            'where filter = "orderfulfillmentstatus:{NOT_STARTED}";'
        )
        ((order_id, buyer, lines),) = orders.value
        assert buyer == "testuser_bountifulbuyer"
        assert [(line["legacyItemId"], line["quantity"]) for line in lines] == [(item_id, 2)]
        shipping = json.dumps([{"lineItemId": lines[0]["lineItemId"], "quantity": 2}])
        await engine.execute(
            f"lines = {shipping}; return insert into fulfillment.createShippingFulfillment "
            "(orderId, lineItems, shippingCarrierCode, trackingNumber) "
            f'values ("{order_id}", "{{lines}}", "USPS", "9400222");'
        )
        seen = await engine.execute(
            "return select OrderArray.Order[0].OrderFulfillmentStatus from trading.GetOrders "  # Order: a list
            f'where OrderIDArray.OrderID = "{order_id}" and OrderRole = "Buyer";'
        )
        assert seen.value == ["FULFILLED"]


async def test_an_inventory_item_stocked_then_removed_through_qlgate_run(emulator, tmp_path):
    config = config_of(emulator, tmp_path)
    assert await qlgate_run(config, tmp_path, "stock-and-remove.ql", sku="HP-BOOK-4") == {
        "sku": "HP-BOOK-4",
        "stocked": 50,
        "removed": True,
    }
    sent = [r["method"] for r in await control(emulator, "GET", "/_sandbox/requests") if "inventory_item" in r["path"]]
    assert sent == ["PUT", "DELETE"]  # in the order written
    async with Engine(tables=ROOT / "tables", config=config) as engine:
        with pytest.raises(Exception, match="404"):
            await engine.execute('return select * from inventory.getInventoryItem where sku = "HP-BOOK-4";')
