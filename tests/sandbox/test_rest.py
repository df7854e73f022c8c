"""The emulator's REST APIs and OAuth2 server, over HTTP on 127.0.0.1."""

import asyncio
import base64
import json
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from qlgate_ebay_emulator import rest_routes
from qlgate_ebay_emulator.app import rest_auth_config
from qlgate_ebay_emulator.state import SEED

OAUTH = json.loads(SEED.read_text())["oauth"]
APP, LIMITED = OAUTH["applications"]
REFRESH = OAUTH["refreshTokens"][0]
SCOPE = "https://api.ebay.com/oauth/api_scope"
TOKEN = "/identity/v1/oauth2/token"
BROWSE = "/buy/browse/v1"


def basic(app):
    return {"Authorization": "Basic " + base64.b64encode(f"{app['clientId']}:{app['clientSecret']}".encode()).decode()}


@pytest.fixture
async def rest(emulator):
    async with aiohttp.ClientSession() as session:

        async def token(form, app=APP):
            async with session.post(emulator.base + TOKEN, data=form, headers=basic(app)) as resp:
                return resp.status, await resp.json()

        async def call(method, path, token=None, **kw):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            async with session.request(method, emulator.base + path, headers=headers, **kw) as resp:
                text = await resp.text()
                data = json.loads(text) if text and resp.content_type == "application/json" else text or None
                return resp.status, data, resp.headers

        session.token, session.call = token, call
        _, app_token = await token({"grant_type": "client_credentials", "scope": SCOPE})
        _, user_token = await token({"grant_type": "refresh_token", "refresh_token": REFRESH["token"]})
        session.app, session.user = app_token["access_token"], user_token["access_token"]
        yield session


def test_route_table_is_current():
    built = rest_routes.render(rest_routes.build(json.loads(rest_routes.DIGEST.read_text())))
    assert built == rest_routes.ROUTES.read_text(), "run: python3 -m qlgate_ebay_emulator.rest_routes"
    assert len(rest_routes.table().routes) == 328


async def test_token_endpoint(rest):
    status, body = await rest.token({"grant_type": "client_credentials"}, app={**APP, "clientSecret": "wrong"})
    assert (status, body["error"]) == (401, "invalid_client")
    status, body = await rest.token({"grant_type": "password"})
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    status, body = await rest.token({"grant_type": "client_credentials", "scope": SCOPE + "/sell.inventory"})
    assert (status, body["error"]) == (400, "invalid_scope")  # a user scope on an application token
    status, body = await rest.token({"grant_type": "refresh_token", "refresh_token": REFRESH["token"]}, app=LIMITED)
    assert (status, body["error"]) == (400, "invalid_grant")  # another client's refresh token
    status, body = await rest.token({"grant_type": "client_credentials", "scope": SCOPE})
    assert status == 200 and body["expires_in"] == 7200 and body["token_type"] == "Application Access Token"
    assert "refresh_token" not in body


async def test_authorization_code_flow(rest, emulator):
    query = {"client_id": APP["clientId"], "redirect_uri": APP["ruName"], "response_type": "code", "state": "xyz"}
    query["scope"] = f"{SCOPE} {SCOPE}/sell.inventory"
    async with rest.get(emulator.base + "/oauth2/authorize", params=query, allow_redirects=False) as resp:
        assert resp.status == 302
        target = urlsplit(resp.headers["Location"])
    assert target.netloc == urlsplit(APP["redirectUri"]).netloc
    got = parse_qs(target.query)
    assert got["state"] == ["xyz"]
    form = {"grant_type": "authorization_code", "code": got["code"][0], "redirect_uri": APP["ruName"]}
    status, body = await rest.token(form)
    assert status == 200 and body["refresh_token"] and body["refresh_token_expires_in"] == 47304000
    status, again = await rest.token(form)
    assert (status, again["error"]) == (400, "invalid_grant")  # a code is good once
    status, items, _ = await rest.call("GET", "/sell/inventory/v1/inventory_item", body["access_token"])
    assert status == 200 and items["total"] == 0


async def test_401_403_and_expiry(rest, emulator):
    status, body, headers = await rest.call("GET", f"{BROWSE}/item_summary/search?q=camera")
    assert status == 401 and body["errors"][0]["errorId"] == 1001 and body["errors"][0]["domain"] == "OAuth"
    assert body["errors"][0]["message"] == "Invalid access token"
    status, body, _ = await rest.call("GET", f"{BROWSE}/item_summary/search?q=camera", "not-a-token")
    assert status == 401
    status, body, _ = await rest.call("GET", "/sell/fulfillment/v1/order", rest.app)  # an application token
    assert status == 403 and body["errors"][0]["errorId"] == 1100 and body["errors"][0]["message"] == "Access denied"
    status, body, _ = await rest.call("GET", f"{BROWSE}/item/?item_ids=v1|1|0", rest.app)  # buy.item.bulk scope
    assert status == 403
    async with rest.put(
        emulator.base + "/_sandbox/oauth", json={"expires_in": 1}, headers=emulator.control_headers()
    ) as resp:
        assert resp.status == 200
    _, short = await rest.token({"grant_type": "client_credentials"})
    assert short["expires_in"] == 1
    await asyncio.sleep(1.1)
    status, body, headers = await rest.call("GET", f"{BROWSE}/item_summary/search?q=camera", short["access_token"])
    assert (
        status == 401
        and "expired" in body["errors"][0]["longMessage"]
        and "invalid_token" in headers["WWW-Authenticate"]
    )


async def test_browse_search_filters_sort_paging_and_items(rest):
    query = {
        "q": "camera",
        "filter": "price:[50..400],priceCurrency:USD,conditionIds:{1000|3000},buyingOptions:{FIXED_PRICE},itemLocationCountry:US",
        "sort": "price",
        "limit": "20",
        "offset": "20",
        "fieldgroups": "MATCHING_ITEMS,CATEGORY_REFINEMENTS,CONDITION_REFINEMENTS",
    }
    status, body, _ = await rest.call("GET", f"{BROWSE}/item_summary/search", rest.app, params=query)
    assert status == 200 and body["total"] > 40 and body["limit"] == 20 and body["offset"] == 20
    assert "offset=40" in body["next"] and "offset=0" in body["prev"]
    items = body["itemSummaries"]
    assert len(items) == 20
    totals = [float(i["price"]["value"]) + float(i["shippingOptions"][0]["shippingCost"]["value"]) for i in items]
    assert totals == sorted(totals)
    assert all(50 <= float(i["price"]["value"]) <= 400 and i["conditionId"] in ("1000", "3000") for i in items)
    assert all(i["buyingOptions"][0] == "FIXED_PRICE" and i["itemLocation"]["country"] == "US" for i in items)
    assert body["refinement"]["categoryDistributions"] and body["refinement"]["conditionDistributions"]
    first = items[0]
    status, item, _ = await rest.call("GET", f"{BROWSE}/item/{first['itemId']}", rest.app)
    assert status == 200 and item["title"] == first["title"] and item["legacyItemId"] == first["legacyItemId"]
    status, same, _ = await rest.call(
        "GET", f"{BROWSE}/item/get_item_by_legacy_id", rest.app, params={"legacy_item_id": first["legacyItemId"]}
    )
    assert status == 200 and same["itemId"] == first["itemId"]
    status, missing, _ = await rest.call("GET", f"{BROWSE}/item/v1|999|0", rest.app)
    assert status == 404 and missing["errors"][0]["domain"] == "API_BROWSE"
    status, bad, _ = await rest.call("GET", f"{BROWSE}/item_summary/search", rest.app, params={"limit": "5"})
    assert status == 400 and bad["errors"][0]["errorId"] == 12001
    status, by_category, _ = await rest.call(
        "GET", f"{BROWSE}/item_summary/search", rest.app, params={"category_ids": "3858", "sort": "-price"}
    )
    assert by_category["total"] > 100 and {i["categories"][0]["categoryId"] for i in by_category["itemSummaries"]} <= {
        "33034",
        "33021",
        "4713",
    }


async def test_taxonomy(rest):
    status, body, _ = await rest.call(
        "GET", "/commerce/taxonomy/v1/get_default_category_tree_id?marketplace_id=EBAY_US", rest.app
    )
    assert (status, body["categoryTreeId"]) == (200, "0")
    status, tree, _ = await rest.call("GET", "/commerce/taxonomy/v1/category_tree/0", rest.app)
    tops = {n["category"]["categoryName"] for n in tree["rootCategoryNode"]["childCategoryTreeNodes"]}
    assert {"Cameras & Photo", "Books & Magazines", "Musical Instruments & Gear"} <= tops
    status, sub, _ = await rest.call(
        "GET", "/commerce/taxonomy/v1/category_tree/0/get_category_subtree?category_id=3858", rest.app
    )
    assert len(sub["categorySubtreeNode"]["childCategoryTreeNodes"]) == 3
    status, suggestions, _ = await rest.call(
        "GET", "/commerce/taxonomy/v1/category_tree/0/get_category_suggestions?q=nikon camera", rest.app
    )
    assert suggestions["categorySuggestions"][0]["category"]["categoryId"] in ("31388", "69323")
    status, aspects, _ = await rest.call(
        "GET", "/commerce/taxonomy/v1/category_tree/0/get_item_aspects_for_category?category_id=33034", rest.app
    )
    brand = aspects["aspects"][0]
    assert brand["localizedAspectName"] == "Brand" and {"localizedValue": "Fender"} in brand["aspectValues"]
    status, bad, _ = await rest.call("GET", "/commerce/taxonomy/v1/category_tree/9/get_category_subtree", rest.app)
    assert status == 400 and bad["errors"][0]["errorId"] == 62004


async def test_publish_buy_and_ship(rest, emulator):
    user, inventory = rest.user, "/sell/inventory/v1"
    item = {
        "product": {"title": "Qlgate Testing Kaleidoscope Deluxe", "aspects": {"Brand": ["Qlgate"]}},
        "condition": "NEW",
        "availability": {"shipToLocationAvailability": {"quantity": 3}},
    }
    status, _, _ = await rest.call("PUT", f"{inventory}/inventory_item/KAL-1", user, json=item)
    assert status == 201
    status, policy, _ = await rest.call(
        "POST",
        "/sell/account/v1/fulfillment_policy",
        user,
        json={
            "name": "Ship fast",
            "marketplaceId": "EBAY_US",
            "categoryTypes": [{"name": "ALL_EXCLUDING_MOTORS_VEHICLES"}],
        },
    )
    assert status == 201
    offer = {
        "sku": "KAL-1",
        "marketplaceId": "EBAY_US",
        "format": "FIXED_PRICE",
        "categoryId": "20667",
        "pricingSummary": {"price": {"value": "24.50", "currency": "USD"}},
        "listingPolicies": {"fulfillmentPolicyId": policy["fulfillmentPolicyId"]},
    }
    status, missing, _ = await rest.call("POST", f"{inventory}/offer", user, json={**offer, "format": None})
    assert status == 400 and missing["errors"][0]["parameters"] == [{"name": "fieldName", "value": "format"}]
    status, created, _ = await rest.call("POST", f"{inventory}/offer", user, json=offer)
    assert status == 201
    status, published, _ = await rest.call("POST", f"{inventory}/offer/{created['offerId']}/publish", user)
    listing = published["listingId"]
    status, found, _ = await rest.call("GET", f"{BROWSE}/item_summary/search?q=kaleidoscope", rest.app)
    assert [i["legacyItemId"] for i in found["itemSummaries"]] == [listing]
    assert [i.item_id for i in emulator.sandbox.market.search(keywords="kaleidoscope")] == [listing]
    trading = (
        '<GetItemRequest xmlns="urn:ebay:apis:eBLBaseComponents"><RequesterCredentials><eBayAuthToken>TEST-TOKEN'
        f"</eBayAuthToken></RequesterCredentials><ItemID>{listing}</ItemID></GetItemRequest>"
    )
    headers = {"X-EBAY-API-CALL-NAME": "GetItem", "X-EBAY-API-COMPATIBILITY-LEVEL": "737", "X-EBAY-API-SITEID": "0"}
    async with rest.post(emulator.base + "/ws/api.dll", data=trading, headers=headers) as resp:
        assert "Qlgate Testing Kaleidoscope Deluxe" in await resp.text()
    async with rest.post(
        emulator.base + "/_sandbox/purchase",
        json={"itemId": listing, "quantity": 2},
        headers=emulator.control_headers(),
    ) as resp:
        bought = await resp.json()
    status, orders, _ = await rest.call(
        "GET", "/sell/fulfillment/v1/order?filter=orderfulfillmentstatus:{NOT_STARTED}", user
    )
    assert bought["orderId"] in [o["orderId"] for o in orders["orders"]]
    ship = {"lineItems": [{"lineItemId": bought["lineItemIds"][0], "quantity": 2}], "shippingCarrierCode": "USPS"}
    path = f"/sell/fulfillment/v1/order/{bought['orderId']}/shipping_fulfillment"
    status, _, headers = await rest.call("POST", path, user, json={**ship, "trackingNumber": "9400100000000000000000"})
    assert status == 201 and headers["Location"].endswith("/9400100000000000000000")
    status, order, _ = await rest.call("GET", f"/sell/fulfillment/v1/order/{bought['orderId']}", user)
    assert order["orderFulfillmentStatus"] == "FULFILLED"
    status, fulfillments, _ = await rest.call("GET", path, user)
    assert fulfillments["fulfillments"][0]["shippingCarrierCode"] == "USPS"
    status, withdrawn, _ = await rest.call("POST", f"{inventory}/offer/{created['offerId']}/withdraw", user)
    assert withdrawn["listingId"] == listing and emulator.sandbox.market.search(keywords="kaleidoscope") == []


async def test_account_policies(rest):
    path = "/sell/account/v1/return_policy"
    body = {"name": "30 days", "marketplaceId": "EBAY_US", "categoryTypes": [{"name": "ALL_EXCLUDING_MOTORS_VEHICLES"}]}
    status, created, _ = await rest.call("POST", path, rest.user, json=body)
    assert status == 201
    status, dup, _ = await rest.call("POST", path, rest.user, json=body)
    assert status == 400 and dup["errors"][0]["domain"] == "API_ACCOUNT"
    status, named, _ = await rest.call(
        "GET", f"{path}/get_by_policy_name?marketplace_id=EBAY_US&name=30 days", rest.user
    )
    assert named["returnPolicyId"] == created["returnPolicyId"]
    status, listed, _ = await rest.call("GET", f"{path}?marketplace_id=EBAY_US", rest.user)
    assert listed["total"] == 1
    status, _, _ = await rest.call("DELETE", f"{path}/{created['returnPolicyId']}", rest.user)
    assert status == 204
    status, _, _ = await rest.call("GET", f"{path}/{created['returnPolicyId']}", rest.user)
    assert status == 404
    status, privileges, _ = await rest.call("GET", "/sell/account/v1/privilege", rest.user)
    assert status == 200 and privileges["sellerRegistrationCompleted"] is True


async def test_not_emulated_faults_and_recording(rest, emulator):
    status, body, _ = await rest.call("GET", "/sell/marketing/v1/ad_campaign", rest.user)
    assert (
        status == 501 and body["errors"][0]["errorId"] == 99501 and "sell.marketing" in body["errors"][0]["longMessage"]
    )
    async with rest.put(
        emulator.base + "/_sandbox/faults",
        json={"search": {"fail": "ack", "times": 1}, "buy.browse.getItem": {"latency_ms": 100, "fail": "http500"}},
        headers=emulator.control_headers(),
    ) as resp:
        assert resp.status == 200
    status, failed, _ = await rest.call("GET", f"{BROWSE}/item_summary/search?q=camera", rest.app)
    assert status == 500 and failed["errors"][0]["category"] == "APPLICATION"
    status, _, _ = await rest.call("GET", f"{BROWSE}/item_summary/search?q=camera", rest.app)
    assert status == 200
    status, _, _ = await rest.call("GET", f"{BROWSE}/item/v1|265000000000|0", rest.app)
    assert status == 500
    calls = [r.call for r in emulator.sandbox.requests]
    assert calls[-3:] == ["search", "search", "getItem"]


def test_emulator_config_covers_rest():
    auth = rest_auth_config("http://127.0.0.1:1")
    assert auth["ebay.app"]["tokenUrl"] == "http://127.0.0.1:1/identity/v1/oauth2/token"
    assert auth["ebay.user"]["refreshToken"] == REFRESH["token"] and auth["ebay.user"]["type"] == "oauth2-refresh-token"
