"""Bad input gets eBay's answers, never a bare 500, and never leaves half-checked data behind:
Trading answers ``Ack`` Failure with an ``Errors`` block, REST a 4xx with eBay's
``{"errors": [...]}``; a bug of the emulator itself is still answered in eBay's shape
(Trading error 10007, REST a 500 with the API's internal errorId) and logged."""

import base64
import json
import logging
import random

import aiohttp
import pytest

from qlgate.http.xml import xml_to_json
from qlgate_ebay_emulator import rest_app
from qlgate_ebay_emulator.state import SEED

from .trading_harness import BUYER, SELLER, Api, item_xml

OAUTH = json.loads(SEED.read_text())["oauth"]
INVENTORY, FULFILLMENT = "/sell/inventory/v1", "/sell/fulfillment/v1"
NESTED = ("<X>1</X>", "<A>1</A><A>2</A>")
FINDING = "/services/search/FindingService/v1"


def code(answer):
    errors = answer["Errors"]
    return int((errors[0] if isinstance(errors, list) else errors)["ErrorCode"])


def with_field(tag, value, kind="Chinese", base=None):
    """An AddItem Item whose ``tag`` holds ``value`` (replaced, or added)."""
    base = base or item_xml(kind=kind)
    if f"<{tag}>" in base:
        head, rest = base.split(f"<{tag}>", 1)
        return f"{head}<{tag}>{value}</{tag}>{rest.split(f'</{tag}>', 1)[1]}"
    return base.replace("</Item>", f"<{tag}>{value}</{tag}></Item>")


def searches_work(api):
    assert api.ok("GetSellerList", "<StartTimeFrom>2000-01-01T00:00:00Z</StartTimeFrom>", token=SELLER)
    assert api.ok("GetSellerList", "", token=SELLER)
    assert api.ok("GetMyeBaySelling", "", token=SELLER)
    assert api.ok("GetSellerEvents", "<StartTimeFrom>2000-01-01T00:00:00Z</StartTimeFrom>", token=SELLER)
    api.market.search(keywords="kettle")


# ------------------------------------------------------------------ Trading


@pytest.mark.parametrize("tag", ["Currency", "Title", "ListingDuration", "ListingType", "Country", "SKU", "Quantity"])
@pytest.mark.parametrize("nested", NESTED)
def test_elements_where_text_is_expected_are_error_37_and_store_nothing(tag, nested):
    api = Api()
    before = dict(api.market.items)
    for call in ("AddItem", "VerifyAddItem", "AddFixedPriceItem"):
        kind = "FixedPriceItem" if call == "AddFixedPriceItem" else "Chinese"
        assert api.fails(call, with_field(tag, nested, kind), token=SELLER) == 37
    container = f"<AddItemRequestContainer><MessageID>1</MessageID>{with_field(tag, nested)}</AddItemRequestContainer>"
    answer = api.ok("AddItems", container, token=SELLER)
    assert code(answer["AddItemResponseContainer"]) == 37
    assert api.market.items == before and api.market.new_item_id()  # nothing stored
    searches_work(api)
    listed = api.ok("AddItem", item_xml(), token=SELLER)  # and the seller lists as before
    assert str(listed["ItemID"]) in api.market.items


def test_revise_checks_every_field_before_changing_any():
    api = Api()
    item_id = api.ok("AddItem", item_xml(kind="FixedPriceItem", extra="<Quantity>3</Quantity>"), token=SELLER)["ItemID"]
    item_id = str(item_id)
    revise = f"<Item><ItemID>{item_id}</ItemID><Title>Red Kettle</Title><StartPrice>abc</StartPrice></Item>"
    assert api.fails("ReviseItem", revise, token=SELLER) == 37
    assert api.market.items[item_id].title == "Blue Kettle"
    nested = f"<Item><ItemID>{item_id}</ItemID><Title><X>1</X></Title></Item>"
    assert api.fails("ReviseItem", nested, token=SELLER) == 37
    status = f"<InventoryStatus><ItemID>{item_id}</ItemID><Quantity>5</Quantity></InventoryStatus>"
    bad = f"<InventoryStatus><ItemID>{item_id}</ItemID><Quantity>x</Quantity></InventoryStatus>"
    assert api.fails("ReviseInventoryStatus", status + bad, token=SELLER) == 37
    assert api.market.items[item_id].quantity == 3
    api.ok("ReviseItem", f"<Item><ItemID>{item_id}</ItemID><Title>Red Kettle</Title></Item>", token=SELLER)
    assert [i.item_id for i in api.market.search(keywords="red kettle")] == [item_id]  # reindexed
    searches_work(api)


@pytest.mark.parametrize(
    ("call", "inner", "token"),
    [
        ("GetCategories", "<LevelLimit>abc</LevelLimit>", BUYER),
        ("GetCategories", "<LevelLimit><A>1</A><A>2</A></LevelLimit>", BUYER),
        ("GetOrders", "<NumberOfDays>99999999999999999999999</NumberOfDays>", SELLER),
        ("GetSellingManagerInventoryFolder", "<MaxDepth>abc</MaxDepth>", SELLER),
        ("GetSellingManagerInventoryFolder", "<MaxDepth><A>1</A><A>2</A></MaxDepth>", SELLER),
        ("AddItem", with_field("ListingDuration", "<X>1</X>"), SELLER),
        ("AddFixedPriceItem", with_field("ListingType", "<X>1</X>", "FixedPriceItem"), SELLER),
        ("GetItem", "<ItemID><X>1</X></ItemID>", BUYER),
        ("AddSellingManagerProduct", "<SellingManagerProductDetails><ProductName>P</ProductName>"
         "<QuantityAvailable>x</QuantityAvailable></SellingManagerProductDetails>", SELLER),
    ],
)  # fmt: skip
def test_typed_fields_are_error_37(call, inner, token):
    assert Api().fails(call, inner, token=token) == 37


def test_an_unexpected_exception_is_error_10007_and_logged(caplog):
    api = Api()

    def broken(user, doc):
        raise ZeroDivisionError("a bug")

    api.trading.calls["GeteBayOfficialTime"] = broken
    with caplog.at_level(logging.ERROR, logger="qlgate_ebay_emulator.trading"):
        answer = api("GeteBayOfficialTime")
    errors = answer["Errors"]
    assert answer["Ack"] == "Failure" and code(answer) == 10007
    assert errors["ShortMessage"] == "Internal error to the application."
    assert errors["ErrorClassification"] == "SystemError" and "ZeroDivisionError" in errors["LongMessage"]
    assert "ZeroDivisionError: a bug" in caplog.text  # with its traceback


# ------------------------------------------------------------------ REST


@pytest.fixture
async def rest(emulator):
    async with aiohttp.ClientSession() as session:
        app = OAUTH["applications"][0]
        form = {"grant_type": "refresh_token", "refresh_token": OAUTH["refreshTokens"][0]["token"]}
        basic = base64.b64encode(f"{app['clientId']}:{app['clientSecret']}".encode()).decode()
        token_url = emulator.base + "/identity/v1/oauth2/token"
        async with session.post(token_url, data=form, headers={"Authorization": f"Basic {basic}"}) as resp:
            token = (await resp.json())["access_token"]

        async def call(method, path, body=None, raw=None):
            headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
            data = raw if raw is not None else (json.dumps(body) if body is not None else None)
            async with session.request(method, emulator.base + path, data=data, headers=headers) as resp:
                text = await resp.text()
                return resp.status, json.loads(text) if text and resp.content_type == "application/json" else text

        session.call = call
        yield session


def ebay_error(status, body, expected=None):
    assert isinstance(body, dict) and body["errors"], (status, body)
    error = body["errors"][0]
    assert {"errorId", "domain", "category", "message"} <= set(error), body
    if expected is not None:
        assert (status, error["errorId"]) == expected, (status, body)
    return error


ITEM = {"product": {"title": "Qlgate Bad Input Teapot"}, "condition": "NEW"}
OFFER = {
    "sku": "BAD-1",
    "marketplaceId": "EBAY_US",
    "format": "FIXED_PRICE",
    "categoryId": "20667",
    "pricingSummary": {"price": {"value": "9.50", "currency": "USD"}},
    "availableQuantity": 2,
}


async def test_inventory_bad_shapes_are_400(rest, emulator):
    sku = f"{INVENTORY}/inventory_item/BAD-1"
    for body in (
        {**ITEM, "condition": ["NEW"]},
        {**ITEM, "condition": {"a": 1}},
        {**ITEM, "availability": "x"},
        {**ITEM, "availability": {"shipToLocationAvailability": 5}},
        {**ITEM, "availability": {"shipToLocationAvailability": {"quantity": True}}},
        {**ITEM, "product": "x"},
        {**ITEM, "product": {"title": ["a"]}},
        {**ITEM, "product": {"title": "t", "aspects": {"Brand": "notalist"}}},
    ):
        status, answer = await rest.call("PUT", sku, body)
        ebay_error(status, answer, (400, 25709))
    assert emulator.sandbox.rest.data.inventory == {}  # nothing stored
    assert (await rest.call("PUT", sku, ITEM))[0] == 201
    for body in (
        {**OFFER, "listingPolicies": "x"},
        {**OFFER, "availableQuantity": "x"},
        {**OFFER, "pricingSummary": {"price": {"value": "nan"}}},
        {**OFFER, "marketplaceId": ["EBAY_US"]},
    ):
        status, answer = await rest.call("POST", f"{INVENTORY}/offer", body)
        ebay_error(status, answer)
        assert status == 400
    status, created = await rest.call("POST", f"{INVENTORY}/offer", OFFER)
    assert status == 201
    status, answer = await rest.call("POST", f"{INVENTORY}/offer", OFFER)  # one offer per SKU and marketplace
    assert ebay_error(status, answer, (400, 25002))["message"] == "An offer already exists for this SKU."
    offer = f"{INVENTORY}/offer/{created['offerId']}"
    status, answer = await rest.call("PUT", offer, {**OFFER, "availableQuantity": "x"})
    ebay_error(status, answer, (400, 25709))
    status, published = await rest.call("POST", f"{offer}/publish")
    assert status == 200
    listing = emulator.sandbox.market.items[published["listingId"]]
    status, answer = await rest.call("PUT", offer, {**OFFER, "availableQuantity": "x"})
    ebay_error(status, answer, (400, 25709))
    assert listing.quantity == 2
    # data stored before these checks (or by a bug) still gets eBay's answers at publish
    emulator.sandbox.rest.data.inventory[(listing.seller, "BAD-1")]["product"] = "x"
    await rest.call("POST", f"{offer}/withdraw")
    status, answer = await rest.call("POST", f"{offer}/publish")
    ebay_error(status, answer, (400, 25709))


async def test_fulfillment_double_ship_and_bad_filter(rest, emulator):
    await rest.call("PUT", f"{INVENTORY}/inventory_item/BAD-1", ITEM)
    _, created = await rest.call("POST", f"{INVENTORY}/offer", OFFER)
    _, published = await rest.call("POST", f"{INVENTORY}/offer/{created['offerId']}/publish")
    async with rest.post(
        emulator.base + "/_sandbox/purchase",
        json={"itemId": published["listingId"], "quantity": 1},
        headers=emulator.control_headers(),
    ) as resp:
        bought = await resp.json()
    path = f"{FULFILLMENT}/order/{bought['orderId']}/shipping_fulfillment"
    ship = {
        "lineItems": [{"lineItemId": bought["lineItemIds"][0]}],
        "shippingCarrierCode": "USPS",
        "trackingNumber": "1",
    }
    assert (await rest.call("POST", path, ship))[0] == 201
    status, answer = await rest.call("POST", path, {**ship, "trackingNumber": "2"})
    ebay_error(status, answer, (400, 32600))
    status, answer = await rest.call("POST", path, {**ship, "trackingNumber": 5})
    assert status == 400
    for bad in ("garbage", "creationdate:[2020..", "orderfulfillmentstatus:{NOPE}", "creationdate:[abc..]"):
        status, answer = await rest.call("GET", f"{FULFILLMENT}/order?filter={bad}")
        ebay_error(status, answer, (400, 30800))
    status, orders = await rest.call("GET", f"{FULFILLMENT}/order?filter=orderfulfillmentstatus:{{FULFILLED}}")
    assert status == 200 and bought["orderId"] in [o["orderId"] for o in orders["orders"]]


async def test_an_unexpected_exception_is_a_500_in_ebays_shape(rest, monkeypatch, caplog):
    def broken(call):
        raise KeyError("a bug")

    monkeypatch.setitem(rest_app.HANDLERS, "sell.inventory.getInventoryItems", broken)
    with caplog.at_level(logging.ERROR, logger="qlgate_ebay_emulator.rest_app"):
        status, answer = await rest.call("GET", f"{INVENTORY}/inventory_item")
    error = ebay_error(status, answer, (500, 25001))
    assert error["domain"] == "API_INVENTORY" and error["category"] == "APPLICATION"
    assert error["message"] == "internal error in the emulator: KeyError"
    assert "KeyError: 'a bug'" in caplog.text


# ------------------------------------------------------------------ a bounded fuzz


VALUES = ["", "abc", "-1", "0", "99999999999999999999999", "1e400", "NaN", *NESTED, "2020-13-45T99:99:99", "Days_x"]
JSON_VALUES = [None, 1, "x", [], {}, [1], {"value": "abc", "currency": 5}, -1, 1e308, True, "9" * 300]
TRADING_FIELDS = {
    "AddItem": ["Title", "Currency", "StartPrice", "Quantity", "ListingDuration", "ListingType", "ConditionID", "SKU"],
    "GetSellerList": ["StartTimeFrom", "EndTimeTo", "UserID", "Pagination"],
    "GetCategories": ["LevelLimit", "CategoryParent", "DetailLevel"],
    "GetOrders": ["NumberOfDays", "CreateTimeFrom", "OrderRole", "OrderStatus"],
    "GetItem": ["ItemID", "SKU"],
    "GetSellingManagerInventoryFolder": ["MaxDepth", "FolderID"],
    "GetMyMessages": ["DetailLevel", "StartTime", "FolderID"],
    "GetFeedback": ["UserID", "FeedbackType", "CommentType"],
    "GeteBayDetails": ["DetailName"],
    "GetCategoryFeatures": ["CategoryID", "FeatureID", "LevelLimit"],
}
REST_ROUTES = [
    ("PUT", f"{INVENTORY}/inventory_item/FZ-{{n}}", ["condition", "availability", "product", "locale"]),
    ("POST", f"{INVENTORY}/offer", ["sku", "marketplaceId", "format", "pricingSummary", "availableQuantity",
                                    "categoryId", "listingPolicies", "listingDescription"]),
    ("POST", f"{FULFILLMENT}/order/1-1/shipping_fulfillment", ["lineItems", "trackingNumber", "shippedDate"]),
    ("POST", "/sell/account/v1/fulfillment_policy", ["name", "marketplaceId", "categoryTypes"]),
]  # fmt: skip
REST_QUERIES = [
    "/buy/browse/v1/item_summary/search?q=x&filter=price:[{v}..]",
    "/buy/browse/v1/item_summary/search?q={v}&limit={v}",
    "/buy/browse/v1/item/{v}",
    f"{FULFILLMENT}/order?filter={{v}}&limit={{v}}",
    f"{INVENTORY}/offer?sku={{v}}",
    "/commerce/taxonomy/v1/category_tree/{v}",
]


async def test_bounded_fuzz_answers_in_ebays_shape_and_searches_keep_working(rest, emulator):
    rng = random.Random(20240501)
    headers = {"X-EBAY-API-COMPATIBILITY-LEVEL": "737", "X-EBAY-API-SITEID": "0"}

    async def trading(call, inner, token=SELLER):
        body = (
            f'<{call}Request xmlns="urn:ebay:apis:eBLBaseComponents"><RequesterCredentials><eBayAuthToken>'
            f"{token}</eBayAuthToken></RequesterCredentials>{inner}</{call}Request>"
        )
        async with rest.post(
            emulator.base + "/ws/api.dll", data=body, headers={**headers, "X-EBAY-API-CALL-NAME": call}
        ) as resp:
            assert resp.status == 200
            answer = xml_to_json(await resp.text())[f"{call}Response"]
        assert answer["Ack"] in ("Success", "Warning") or code(answer) != 10007, (call, inner, answer)
        return answer

    for _ in range(160):
        call = rng.choice(sorted(TRADING_FIELDS))
        fields = rng.sample(TRADING_FIELDS[call], k=min(2, len(TRADING_FIELDS[call])))
        if call == "AddItem":
            inner = item_xml(kind=rng.choice(["Chinese", "FixedPriceItem"]))
            for f in fields:
                inner = with_field(f, rng.choice(VALUES), base=inner)
        else:
            inner = "".join(f"<{f}>{rng.choice(VALUES)}</{f}>" for f in fields)
        await trading(call, inner, token=rng.choice([SELLER, BUYER]))
    for n in range(160):
        if n % 3 == 0:
            path = rng.choice(REST_QUERIES).replace("{v}", rng.choice(["x", "-1", "v1|abc|0", "%5B", "1e999", "{a|"]))
            status, answer = await rest.call("GET", path)
        else:
            method, path, members = rng.choice(REST_ROUTES)
            body = {**OFFER, "sku": f"FZ-{n % 7}"} if "offer" in path else dict(ITEM)
            for m in rng.sample(members, k=2):
                body[m] = rng.choice(JSON_VALUES)
            raw = rng.choice([None, None, None, b"", b"[]", b"null", b"{bad"])
            status, answer = await rest.call(method, path.replace("{n}", str(n % 7)), body, raw=raw)
        if status >= 400:
            error = ebay_error(status, answer)
            assert status < 500 or status == 501, (path, answer)  # bad input is a 4xx, never an internal error
            assert "internal error in the emulator" not in error["message"]
    # and everyone's searches keep working
    for call, inner in (
        ("GetSellerList", "<StartTimeFrom>2000-01-01T00:00:00Z</StartTimeFrom>"),
        ("GetMyeBaySelling", ""),
        ("GetSearchResults", "<Query>kettle</Query>"),
    ):
        answer = await trading(call, inner)
        assert call == "GetSearchResults" or answer["Ack"] == "Success", answer
    status, found = await rest.call("GET", "/buy/browse/v1/item_summary/search?q=kettle&limit=200")
    assert status == 200 and "total" in found
    params = {"OPERATION-NAME": "findItemsByKeywords", "SECURITY-APPNAME": "TEST-APPNAME", "keywords": "kettle"}
    async with rest.get(emulator.base + FINDING, params={**params, "RESPONSE-DATA-FORMAT": "JSON"}) as resp:
        assert resp.status == 200
        assert (await resp.json())["findItemsByKeywordsResponse"][0]["ack"] == ["Success"]
