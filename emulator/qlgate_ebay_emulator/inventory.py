"""The Inventory API (``/sell/inventory/v1``) for the seller a user token belongs to:
inventory items by SKU, offers, and publishing — ``publishOffer`` lists the offer as an
item of the shared marketplace (a legacy ItemID), found by Browse, Finding, Shopping and
Trading like any other; ``withdrawOffer`` (and deleting the offer or its inventory item)
ends it. Business policies named by an offer must exist (account.py); they are optional.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from .rest_common import Reply, RestCall, RestError, money, page
from .state import Item, now, stamp

NOT_FOUND = 25710  # "We didn't find the entity you are requesting."
OFFER_NOT_FOUND = 25713
INVALID = 25709
CONDITIONS = {
    "NEW": 1000,
    "LIKE_NEW": 2750,
    "NEW_OTHER": 1500,
    "NEW_WITH_DEFECTS": 1750,
    "CERTIFIED_REFURBISHED": 2000,
    "SELLER_REFURBISHED": 2500,
    "USED_EXCELLENT": 3000,
    "USED_VERY_GOOD": 4000,
    "USED_GOOD": 5000,
    "USED_ACCEPTABLE": 6000,
    "FOR_PARTS_OR_NOT_WORKING": 7000,
}
POLICY_FIELDS = {
    "fulfillmentPolicyId": "fulfillment_policy",
    "paymentPolicyId": "payment_policy",
    "returnPolicyId": "return_policy",
}


def _inventory_item(call: RestCall, sku: str) -> dict[str, Any]:
    found = call.data.inventory.get((call.user, sku))
    if found is None:
        raise RestError(
            404, NOT_FOUND, "We didn't find the entity you are requesting.", parameters={"sku": sku}, category="REQUEST"
        )
    return found


def _offer(call: RestCall) -> dict[str, Any]:
    offer = call.data.offers.get(call.params.get("offerId", ""))
    if offer is None or offer["_seller"] != call.user:
        raise RestError(
            404, OFFER_NOT_FOUND, "The offer is not available.", parameters={"offerId": call.params.get("offerId", "")}
        )
    return offer


def _public(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if not k.startswith("_")}


def _invalid(field: str) -> RestError:
    return RestError(400, INVALID, f"Invalid value for {field}.", parameters={"fieldName": field})


def _object(value: Any, field: str) -> dict[str, Any]:
    """A member that must be a JSON object (absent or null: an empty one)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _invalid(field)
    return value


def _count(value: Any, field: str) -> int | None:
    """A member that must be a whole number ≥ 0 (absent or null: None)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2**31 - 1:
        raise _invalid(field)
    return value


def _text(value: Any, field: str) -> None:
    if value is not None and not isinstance(value, str):
        raise _invalid(field)


def _check_product(body: dict[str, Any]) -> None:
    product = _object(body.get("product"), "product")
    for name in ("title", "description", "subtitle", "brand", "mpn"):
        _text(product.get(name), "product." + name)
    images = product.get("imageUrls")
    if images is not None and (not isinstance(images, list) or not all(isinstance(i, str) for i in images)):
        raise _invalid("product.imageUrls")
    aspects = _object(product.get("aspects"), "product.aspects")
    for name, values in aspects.items():
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise _invalid(f"product.aspects.{name}")


def create_or_replace_inventory_item(call: RestCall) -> Reply:
    sku = call.params["sku"]
    if len(sku) > 50:
        raise RestError(400, 25702, "The SKU is invalid: at most 50 characters.", parameters={"sku": sku})
    body = call.json()
    condition = body.get("condition")
    if condition is not None and (not isinstance(condition, str) or condition not in CONDITIONS):
        raise _invalid("condition")
    availability = _object(body.get("availability"), "availability")
    ship_to = _object(availability.get("shipToLocationAvailability"), "availability.shipToLocationAvailability")
    _count(ship_to.get("quantity"), "availability.shipToLocationAvailability.quantity")
    _text(body.get("locale"), "locale")
    _check_product(body)
    created = (call.user, sku) not in call.data.inventory
    call.data.inventory[(call.user, sku)] = {**body, "sku": sku, "locale": body.get("locale", "en_US")}
    return Reply(None, 201 if created else 204)


def get_inventory_item(call: RestCall) -> Reply:
    return Reply(_inventory_item(call, call.params["sku"]))


def get_inventory_items(call: RestCall) -> Reply:
    limit = call.int_param("limit", 25, 1, 200, 25706)
    offset = call.int_param("offset", 0, 0, 10**9, 25706)
    mine = [v for (seller, _), v in call.data.inventory.items() if seller == call.user]
    out = page(call, len(mine), limit, offset, "/inventory_item", {})
    return Reply(out | {"size": len(mine[offset : offset + limit]), "inventoryItems": mine[offset : offset + limit]})


def delete_inventory_item(call: RestCall) -> Reply:
    sku = call.params["sku"]
    _inventory_item(call, sku)
    for offer_id, offer in list(call.data.offers.items()):
        if offer["_seller"] == call.user and offer["sku"] == sku:
            _end(call, offer)
            del call.data.offers[offer_id]
    del call.data.inventory[(call.user, sku)]
    return Reply(None, 204)


def _check_offer(call: RestCall, body: dict[str, Any]) -> None:
    for name in ("sku", "marketplaceId", "format"):
        call.required(name, INVALID, body.get(name) or "")
        _text(body[name], name)
    for name in ("categoryId", "listingDescription", "merchantLocationKey", "listingDuration"):
        value = body.get(name)
        if isinstance(value, bool) or not isinstance(value, (str, int, type(None))):
            raise _invalid(name)
    _count(body.get("availableQuantity"), "availableQuantity")
    _count(body.get("quantityLimitPerBuyer"), "quantityLimitPerBuyer")
    _object(body.get("pricingSummary"), "pricingSummary")
    policies = _object(body.get("listingPolicies"), "listingPolicies")
    if body["format"] not in ("FIXED_PRICE", "AUCTION"):
        raise RestError(400, INVALID, "Invalid value for format.", parameters={"fieldName": "format"})
    _inventory_item(call, str(body["sku"]))
    if body.get("pricingSummary"):
        money(body, "pricingSummary.price", 25752)
    for field, kind in POLICY_FIELDS.items():
        policy_id = policies.get(field)
        _text(policy_id, "listingPolicies." + field)
        if policy_id and str(policy_id) not in call.data.policies.get(kind, {}):
            raise RestError(
                400,
                25007 if kind == "fulfillment_policy" else INVALID,
                f"Invalid {field}.",
                parameters={"fieldName": field},
            )


def create_offer(call: RestCall) -> Reply:
    body = call.json()
    _check_offer(call, body)
    for existing in call.data.offers.values():
        if (existing["_seller"], existing["sku"], existing["marketplaceId"]) == (
            call.user,
            body["sku"],
            body["marketplaceId"],
        ):
            raise RestError(
                400,
                25002,
                "An offer already exists for this SKU.",
                f"Offer {existing['offerId']} exists for SKU {body['sku']} on {body['marketplaceId']}; update it.",
                parameters={"offerId": existing["offerId"]},
            )
    offer_id = call.data.new_id()
    call.data.offers[offer_id] = {**body, "offerId": offer_id, "status": "UNPUBLISHED", "_seller": call.user}
    return Reply({"offerId": offer_id}, 201)


def get_offer(call: RestCall) -> Reply:
    return Reply(_public(_offer(call)))


def get_offers(call: RestCall) -> Reply:
    sku = str(call.required("sku", INVALID))
    limit = call.int_param("limit", 25, 1, 200, 25706)
    offset = call.int_param("offset", 0, 0, 10**9, 25706)
    _inventory_item(call, sku)
    mine = [_public(o) for o in call.data.offers.values() if o["_seller"] == call.user and o["sku"] == sku]
    out = page(call, len(mine), limit, offset, "/offer", {"sku": sku})
    return Reply(out | {"size": len(mine[offset : offset + limit]), "offers": mine[offset : offset + limit]})


def update_offer(call: RestCall) -> Reply:
    offer = _offer(call)
    body = {"sku": offer["sku"], "marketplaceId": offer["marketplaceId"], "format": offer["format"], **call.json()}
    _check_offer(call, body)
    if (body["sku"], body["marketplaceId"]) != (offer["sku"], offer["marketplaceId"]):
        raise RestError(400, 25002, "An offer's SKU and marketplace cannot change.", parameters={"fieldName": "sku"})
    price = money(body, "pricingSummary.price", 25752) if body.get("pricingSummary") else None
    offer.update(body)
    item = call.market.items.get(str(offer.get("listing", {}).get("listingId", "")))
    if item is not None and item.active:  # a published offer revises its listing
        if price is not None:
            item.price, item.currency = price
        if body.get("availableQuantity") is not None:
            item.quantity = int(body["availableQuantity"]) + item.quantity_sold  # checked by _check_offer
    return Reply(None, 204)


def delete_offer(call: RestCall) -> Reply:
    offer = _offer(call)
    _end(call, offer)
    del call.data.offers[offer["offerId"]]
    return Reply(None, 204)


def publish_offer(call: RestCall) -> Reply:
    offer = _offer(call)
    if offer["status"] == "PUBLISHED":
        return Reply({"listingId": offer["listing"]["listingId"]})
    inventory = _inventory_item(call, offer["sku"])
    product = _object(inventory.get("product"), "product")
    missing = [
        name
        for name, value in (
            ("Product.Title", product.get("title")),
            ("Offer.CategoryId", offer.get("categoryId")),
            ("Offer.PricingSummary.Price", offer.get("pricingSummary")),
        )
        if not value
    ]
    if missing:
        raise RestError(
            400, 25002, f"A user error has occurred. {missing[0]} is missing.",
            parameters={"fieldName": missing[0]}, category="REQUEST",
        )  # fmt: skip
    category = call.market.categories.get(str(offer["categoryId"]))
    if category is None or not category.leaf:
        raise RestError(
            400,
            25005,
            "The category ID is invalid: not a leaf category.",
            parameters={"categoryId": str(offer["categoryId"])},
        )
    price, currency = money(offer, "pricingSummary.price", 25752)
    stock = ((inventory.get("availability") or {}).get("shipToLocationAvailability") or {}).get("quantity", 1)
    images = product.get("imageUrls") or []
    item = Item(
        call.market.new_item_id(), str(product["title"])[:80], category.category_id, category.name, price, currency,
        "Chinese" if offer["format"] == "AUCTION" else "FixedPrice", call.user, stamp(),
        stamp(now() + timedelta(days=7 if offer["format"] == "AUCTION" else 30)),
        quantity=int(offer.get("availableQuantity") or stock or 1), country="US",
        condition_id=CONDITIONS.get(str(inventory.get("condition") or "NEW"), 1000),
        description=str(offer.get("listingDescription") or product.get("description") or ""),
        gallery_url=images[0] if images else None,
    )  # fmt: skip
    item.view_url = f"https://www.ebay.com/itm/{item.item_id}"
    call.market.add(item)
    offer["status"] = "PUBLISHED"
    offer["listing"] = {"listingId": item.item_id, "listingStatus": "ACTIVE"}
    return Reply({"listingId": item.item_id})


def _end(call: RestCall, offer: dict[str, Any]) -> str | None:
    listing_id = (offer.get("listing") or {}).get("listingId")
    item = call.market.items.get(str(listing_id or ""))
    if item is not None and item.active:
        item.status = "Completed"
        item.end = stamp()
    offer["status"] = "UNPUBLISHED"
    offer.pop("listing", None)
    return str(listing_id) if listing_id else None


def withdraw_offer(call: RestCall) -> Reply:
    offer = _offer(call)
    if offer["status"] != "PUBLISHED":
        raise RestError(400, 25002, "The offer is not published.", parameters={"offerId": offer["offerId"]})
    return Reply({"listingId": _end(call, offer)})


HANDLERS = {
    "sell.inventory.createOrReplaceInventoryItem": create_or_replace_inventory_item,
    "sell.inventory.getInventoryItem": get_inventory_item,
    "sell.inventory.getInventoryItems": get_inventory_items,
    "sell.inventory.deleteInventoryItem": delete_inventory_item,
    "sell.inventory.createOffer": create_offer,
    "sell.inventory.getOffer": get_offer,
    "sell.inventory.getOffers": get_offers,
    "sell.inventory.updateOffer": update_offer,
    "sell.inventory.deleteOffer": delete_offer,
    "sell.inventory.publishOffer": publish_offer,
    "sell.inventory.withdrawOffer": withdraw_offer,
}
