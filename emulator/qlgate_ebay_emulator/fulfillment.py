"""The Fulfillment API (``/sell/fulfillment/v1``): the orders of the seller a user token
belongs to — the marketplace's orders (``market.buy``: Trading's purchases, the control
endpoint ``POST /_sandbox/purchase``) — and shipping them: ``createShippingFulfillment``
marks line items shipped, and the order FULFILLED once all of them are.
"""

from __future__ import annotations

import re
from typing import Any

from .rest_common import Reply, RestCall, RestError, amount, page
from .search import iso_stamp
from .state import Order, Shipment, stamp

_ONE_FILTER = r"(\w+):(\[[^\]]*\]|\{[^}]*\})"
_FILTER = re.compile(_ONE_FILTER)
_FILTERS = re.compile(rf"{_ONE_FILTER}(?:,{_ONE_FILTER})*")  # name:[range] or name:{a|b}, by commas
BAD_ORDER = 32100  # "Invalid order ID"
BAD_FILTER = 30800  # "Invalid filter value"
ALREADY_SHIPPED = 32600  # the digest's createShippingFulfillment REQUEST error; eBay's message unconfirmed
STATUSES = {"NOT_STARTED", "IN_PROGRESS", "FULFILLED"}


def order_body(call: RestCall, order: Order) -> dict[str, Any]:
    shipped = {li for s in order.shipments for li in s.line_item_ids}
    currency = order.line_items[0].currency if order.line_items else "USD"
    return {
        "orderId": order.order_id,
        "legacyOrderId": order.order_id,
        "creationDate": order.created,
        "lastModifiedDate": max([order.created] + [s.shipped for s in order.shipments]),
        "orderFulfillmentStatus": order.status,
        "orderPaymentStatus": "PAID" if order.paid else "PENDING",
        "sellerId": order.seller,
        "buyer": {"username": order.buyer},
        "pricingSummary": {"priceSubtotal": amount(order.total, currency), "total": amount(order.total, currency)},
        "cancelStatus": {"cancelState": "NONE_REQUESTED", "cancelRequests": []},
        "salesRecordReference": order.order_id.split("-")[0],
        "totalFeeBasisAmount": amount(order.total, currency),
        "lineItems": [
            {
                "lineItemId": li.line_item_id,
                "legacyItemId": li.item_id,
                "legacyVariationId": "0",
                "title": li.title,
                "quantity": li.quantity,
                "lineItemCost": amount(li.price * li.quantity, li.currency),
                "total": amount(li.price * li.quantity, li.currency),
                "lineItemFulfillmentStatus": "FULFILLED" if li.line_item_id in shipped else "NOT_STARTED",
                "soldFormat": "FIXED_PRICE",
                "listingMarketplaceId": "EBAY_US",
                "purchaseMarketplaceId": "EBAY_US",
            }
            | ({"sku": li.sku} if li.sku else {})
            for li in order.line_items
        ],
        "fulfillmentHrefs": [
            call.href(f"/order/{order.order_id}/shipping_fulfillment/{s.fulfillment_id}") for s in order.shipments
        ],
        "fulfillmentStartInstructions": [{"fulfillmentInstructionsType": "SHIP_TO", "ebaySupportedFulfillment": False}],
    }


def _order(call: RestCall, key: str = "orderId") -> Order:
    order_id = call.params.get(key, "")
    order = call.market.orders.get(order_id)
    if order is None or order.seller != call.user:
        raise RestError(
            404, BAD_ORDER, "Invalid order ID", f"Order {order_id} was not found.", parameters={"orderId": order_id}
        )
    return order


def get_orders(call: RestCall) -> Reply:
    limit = call.int_param("limit", 50, 1, 1000, 30830)
    offset = call.int_param("offset", 0, 0, 10**9, 30840)
    orders = call.market.orders_of(seller=call.user)
    ids = [i for i in call.query.get("orderIds", "").split(",") if i.strip()]
    if ids:
        orders = [o for o in orders if o.order_id in ids]
    text = call.query.get("filter", "").strip()
    if text and not _FILTERS.fullmatch(text):
        raise RestError(
            400,
            BAD_FILTER,
            "Invalid filter value.",
            "The filter cannot be parsed: use name:[from..to] or name:{value|value}, separated by commas.",
            parameters={"filter": text},
        )
    for name, value in _FILTER.findall(text):
        if name in ("creationdate", "lastmodifieddate"):
            low, _, high = value.strip("[]").partition("..")
            try:
                low, high = iso_stamp(low) if low else "", iso_stamp(high) if high else ""
            except ValueError:
                raise RestError(400, 30800, f"Invalid filter value for {name}.", parameters={"filter": name}) from None
            orders = [o for o in orders if (not low or o.created >= low) and (not high or o.created <= high)]
        elif name == "orderfulfillmentstatus":
            wanted = {v.strip() for v in value.strip("{}").split("|")}
            if not wanted <= STATUSES:
                raise RestError(400, BAD_FILTER, f"Invalid filter value for {name}.", parameters={"filter": name})
            orders = [o for o in orders if o.status in wanted]
        else:
            raise RestError(400, 30810, f"Invalid filter name {name}.", parameters={"filter": name})
    orders.sort(key=lambda o: o.created, reverse=True)
    echo = {k: v for k, v in call.query.items() if k not in ("limit", "offset")}
    out = page(call, len(orders), limit, offset, "/order", echo)
    return Reply(out | {"orders": [order_body(call, o) for o in orders[offset : offset + limit]], "warnings": []})


def get_order(call: RestCall) -> Reply:
    return Reply(order_body(call, _order(call)))


def create_shipping_fulfillment(call: RestCall) -> Reply:
    order = _order(call)
    body = call.json()
    lines = body.get("lineItems")
    if not isinstance(lines, list) or not lines:
        raise RestError(400, 32200, "The 'lineItems' field is missing.", parameters={"fieldName": "lineItems"})
    known = {li.line_item_id for li in order.line_items}
    chosen = [str((li or {}).get("lineItemId", "")) for li in lines if isinstance(li, dict)]
    if not chosen or any(c not in known for c in chosen):
        raise RestError(400, 32210, "Invalid line item ID.", parameters={"fieldName": "lineItems.lineItemId"})
    for field in ("trackingNumber", "shippingCarrierCode"):
        call.required(field, 32300 if field == "trackingNumber" else 32400, body.get(field) or "")
        if not isinstance(body[field], str):
            raise RestError(400, 32300 if field == "trackingNumber" else 32400, f"Invalid {field}.")
    already = {li for s in order.shipments for li in s.line_item_ids}
    if any(c in already for c in chosen):
        raise RestError(
            400,
            ALREADY_SHIPPED,
            "The line item has already been shipped.",
            "Every line item a shipping fulfillment names must still be unshipped.",
            parameters={"lineItemId": next(c for c in chosen if c in already)},
        )
    fulfillment_id = str(body["trackingNumber"])
    shipped = stamp()
    if body.get("shippedDate"):
        try:
            shipped = iso_stamp(str(body["shippedDate"]))
        except ValueError:
            raise RestError(400, 32500, "Invalid shippedDate.", parameters={"fieldName": "shippedDate"}) from None
    order.shipments.append(Shipment(fulfillment_id, chosen, str(body["shippingCarrierCode"]), fulfillment_id, shipped))
    done = {li for s in order.shipments for li in s.line_item_ids}
    order.status = "FULFILLED" if known <= done else "IN_PROGRESS"
    location = call.href(f"/order/{order.order_id}/shipping_fulfillment/{fulfillment_id}")
    return Reply({}, 201, {"Location": location})


def _shipment(call: RestCall, shipment: Shipment, order: Order) -> dict[str, Any]:
    return {
        "fulfillmentId": shipment.fulfillment_id,
        "shipmentTrackingNumber": shipment.tracking_number,
        "shippingCarrierCode": shipment.carrier,
        "shippedDate": shipment.shipped,
        "lineItems": [
            {"lineItemId": li.line_item_id, "quantity": li.quantity}
            for li in order.line_items
            if li.line_item_id in shipment.line_item_ids
        ],
    }


def get_shipping_fulfillments(call: RestCall) -> Reply:
    order = _order(call)
    found = [_shipment(call, s, order) for s in order.shipments]
    return Reply({"fulfillments": found, "total": len(found), "warnings": []})


def get_shipping_fulfillment(call: RestCall) -> Reply:
    order = _order(call)
    for s in order.shipments:
        if s.fulfillment_id == call.params.get("fulfillmentId"):
            return Reply(_shipment(call, s, order))
    raise RestError(
        404,
        32110,
        "Invalid shipping fulfillment ID",
        parameters={"fulfillmentId": call.params.get("fulfillmentId", "")},
    )


HANDLERS = {
    "sell.fulfillment.getOrders": get_orders,
    "sell.fulfillment.getOrder": get_order,
    "sell.fulfillment.createShippingFulfillment": create_shipping_fulfillment,
    "sell.fulfillment.getShippingFulfillments": get_shipping_fulfillments,
    "sell.fulfillment.getShippingFulfillment": get_shipping_fulfillment,
}
