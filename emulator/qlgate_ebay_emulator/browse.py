"""The Browse API (``/buy/browse/v1``) over the shared marketplace: ``item_summary/search``
with Browse's ``q``, ``category_ids``, ``filter``, ``sort``, ``limit``/``offset`` and
refinements; ``item/{item_id}`` (ids ``v1|<legacy ItemID>|0``), ``item/`` (getItems),
``item/get_item_by_legacy_id`` and ``item/get_items_by_item_group``. Searches run through
search.py, the same search Finding uses.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from .catalogue import condition_names
from .rest_common import Reply, RestCall, RestError, amount, browse_id, page
from .search import Query, buying_options, iso_stamp
from .state import Item

MAX_LIMIT = 200
MAX_RESULTS = 10_000
SORTS = {"price": "price+shipping", "-price": "-price+shipping", "newlyListed": "newest", "endingSoonest": "ending"}
_FILTER = re.compile(r"(\w+):(\[[^\]]*\]|\{[^}]*\}|[^,]*)")
NOT_FOUND = 11001  # Browse's "The specified item Id was not found" (getItem's 400/404 family)


def _set(text: str) -> list[str]:
    return [v.strip() for v in text.strip("{}").split("|") if v.strip()]


def _range(text: str, field: str) -> tuple[str | None, str | None]:
    if not (text.startswith("[") and text.endswith("]")):
        raise RestError(400, 12023, f"Invalid filter value for {field}.", parameters={"filter": field})
    low, sep, high = text[1:-1].partition("..")
    return low.strip() or None, (high.strip() or None) if sep else (low.strip() or None)


def parse_filter(query: Query, text: str) -> None:
    """Browse's ``filter`` (``price:[10..50],priceCurrency:USD,conditionIds:{1000|3000},…``)."""
    conditions = {name.upper().split()[0]: cid for cid, name in condition_names().items()}
    for name, value in _FILTER.findall(text or ""):
        try:
            if name == "price":
                low, high = _range(value, name)
                query.min_price = float(low) if low else None
                query.max_price = float(high) if high else None
            elif name == "priceCurrency":
                query.currency = value
            elif name == "conditionIds":
                query.conditions = {int(v) for v in _set(value)}
            elif name == "conditions":
                groups = {"NEW": {1000, 1500}, "USED": {3000}, "UNSPECIFIED": set(), "REFURBISHED": {2000, 2500}}
                query.conditions = set().union(
                    *(groups.get(v.upper(), {conditions.get(v.upper(), -1)}) for v in _set(value))
                )
            elif name == "buyingOptions":
                query.buying = set(_set(value))
            elif name in ("itemLocationCountry", "itemLocationCountries"):
                query.countries = set(_set(value))
            elif name == "sellers":
                query.sellers = _set(value)
            elif name == "excludeSellers":
                query.exclude_sellers = _set(value)
            elif name == "maxDeliveryCost":
                query.free_shipping = float(value) == 0
            elif name == "itemEndDate":
                low, high = _range(value, name)
                query.end_from = iso_stamp(low) if low else None
                query.end_to = iso_stamp(high) if high else None
            elif name == "categoryIds":
                query.categories = _set(value)
        except ValueError:
            raise RestError(400, 12023, f"Invalid filter value for {name}.", parameters={"filter": name}) from None


def summary(call: RestCall, item: Item) -> dict[str, Any]:
    """An item as Browse's ItemSummary."""
    city, _, rest = (item.location or "").partition(",")
    region = rest.split(",")[0] if "," in rest else ""
    seller = call.market.users.get(item.seller)
    out: dict[str, Any] = {
        "itemId": browse_id(item),
        "title": item.title,
        "leafCategoryIds": [item.category_id],
        "categories": [{"categoryId": item.category_id, "categoryName": item.category_name}],
        "image": {"imageUrl": item.gallery_url or f"https://i.ebayimg.com/images/g/{item.item_id}/s-l225.jpg"},
        "price": amount(item.price, item.currency),
        "itemHref": call.href(f"/item/{browse_id(item)}"),
        "seller": {
            "username": item.seller,
            "feedbackPercentage": "99.1",
            "feedbackScore": seller.feedback if seller else 0,
        },
        "condition": condition_names().get(item.condition_id, "Used"),
        "conditionId": str(item.condition_id),
        "shippingOptions": [
            {
                "shippingCostType": "FIXED",
                "shippingCost": amount(item.shipping_cost, item.currency),
            }
        ],
        "buyingOptions": buying_options(item),
        "itemWebUrl": item.view_url or f"https://www.ebay.com/itm/{item.item_id}",
        "itemLocation": {"postalCode": item.postal_code, "country": item.country or "US"}
        | ({"city": city} if city else {})
        | ({"stateOrProvince": region} if region else {}),
        "adultOnly": False,
        "legacyItemId": item.item_id,
        "availableCoupons": False,
        "itemCreationDate": item.start,
        "topRatedBuyingExperience": False,
        "priorityListing": False,
        "listingMarketplaceId": "EBAY_US",
    }
    if "AUCTION" in out["buyingOptions"]:
        out |= {
            "bidCount": item.bid_count,
            "currentBidPrice": amount(item.price, item.currency),
            "itemEndDate": item.end,
        }
    return out


def detail(call: RestCall, item: Item) -> dict[str, Any]:
    """An item as Browse's Item (getItem)."""
    out = summary(call, item)
    out.pop("itemHref")
    out |= {
        "categoryPath": item.category_name,
        "categoryId": item.category_id,
        "description": item.description or item.title,
        "shortDescription": item.title,
        "quantityLimitPerBuyer": max(1, item.quantity - item.quantity_sold),
        "estimatedAvailabilities": [
            {
                "estimatedAvailabilityStatus": "IN_STOCK" if item.active else "OUT_OF_STOCK",
                "estimatedAvailableQuantity": max(0, item.quantity - item.quantity_sold),
                "estimatedSoldQuantity": item.quantity_sold,
            }
        ],
        "itemEndDate": item.end,
        "returnTerms": {"returnsAccepted": True, "returnPeriod": {"value": 30, "unit": "CALENDAR_DAY"}},
        "enabledForGuestCheckout": False,
    }
    return out


def search(call: RestCall) -> Reply:
    q, categories = call.query.get("q"), call.query.get("category_ids")
    if not (q or categories or call.query.get("epid") or call.query.get("gtin") or call.query.get("charity_ids")):
        raise RestError(
            400,
            12001,
            "The call must have a valid 'q', 'category_ids', 'epid', 'gtin', or 'charity_ids' query parameter.",
            parameters={"parameter": "q"},
        )
    limit = call.int_param("limit", 50, 0, MAX_LIMIT, 12006)
    offset = call.int_param("offset", 0, 0, MAX_RESULTS - 1, 12007)
    if limit + offset > MAX_RESULTS:
        raise RestError(400, 12007, "The 'offset' value is invalid.", "limit + offset must not exceed 10000.")
    query = Query(q or None, [c.strip() for c in categories.split(",") if c.strip()] if categories else None)
    parse_filter(query, call.query.get("filter", ""))
    sort = call.query.get("sort")
    if sort and sort not in SORTS and sort != "distance":
        raise RestError(400, 12025, "The 'sort' value is invalid.", parameters={"sort": sort})
    query.sort = SORTS.get(sort or "", "best")
    found = call.market.find(query)
    echo = {k: v for k, v in call.query.items() if k not in ("limit", "offset")}
    out = page(call, len(found), limit, offset, "/item_summary/search", echo)
    chosen = found[offset : offset + limit]
    if chosen:
        out["itemSummaries"] = [summary(call, i) for i in chosen]
    groups = set((call.query.get("fieldgroups") or "MATCHING_ITEMS").upper().split(","))
    if groups & {
        "ASPECT_REFINEMENTS",
        "BUYING_OPTION_REFINEMENTS",
        "CATEGORY_REFINEMENTS",
        "CONDITION_REFINEMENTS",
        "FULL",
    }:
        out["refinement"] = refinement(call, found, groups)
    return Reply(out)


def refinement(call: RestCall, found: list[Item], groups: set[str]) -> dict[str, Any]:
    every = "FULL" in groups
    out: dict[str, Any] = {}
    categories = Counter(i.category_id for i in found)
    if categories:
        out["dominantCategoryId"] = categories.most_common(1)[0][0]
    if every or "CATEGORY_REFINEMENTS" in groups:
        names = {i.category_id: i.category_name for i in found}
        out["categoryDistributions"] = [
            {
                "categoryId": c,
                "categoryName": names[c],
                "matchCount": n,
                "refinementHref": call.href("/item_summary/search", {**call.query, "category_ids": c}),
            }
            for c, n in categories.most_common()
        ]
    if every or "CONDITION_REFINEMENTS" in groups:
        conditions = condition_names()
        out["conditionDistributions"] = [
            {"condition": conditions.get(c, "Used"), "conditionId": str(c), "matchCount": n}
            for c, n in sorted(Counter(i.condition_id for i in found).items())
        ]
    if every or "BUYING_OPTION_REFINEMENTS" in groups:
        counts = Counter(o for i in found for o in buying_options(i))
        out["buyingOptionDistributions"] = [{"buyingOption": o, "matchCount": n} for o, n in sorted(counts.items())]
    if every or "ASPECT_REFINEMENTS" in groups:
        out["aspectDistributions"] = []
    return out


def _legacy(call: RestCall, item_id: str) -> Item:
    """The item of a Browse id (``v1|123|0``) or a legacy ItemID; 404 when there is none."""
    parts = item_id.split("|")
    legacy = parts[1] if len(parts) == 3 and parts[0] == "v1" else item_id if item_id.isdigit() else ""
    if not legacy:
        raise RestError(
            400, 11006, "The legacy ID is invalid.", f"Invalid item id {item_id}.", parameters={"item_id": item_id}
        )
    item = call.market.items.get(legacy)
    if item is None:
        raise RestError(404, NOT_FOUND, "The specified item Id was not found.", parameters={"itemId": item_id})
    return item


def get_item(call: RestCall) -> Reply:
    return Reply(detail(call, _legacy(call, call.params["item_id"])))


def get_item_by_legacy_id(call: RestCall) -> Reply:
    legacy = call.required("legacy_item_id", 11003)
    return Reply(detail(call, _legacy(call, str(legacy))))


def get_items(call: RestCall) -> Reply:
    ids = [i for i in call.query.get("item_ids", "").split(",") if i.strip()]
    ids += [i for i in call.query.get("item_group_ids", "").split(",") if i.strip()]
    if not ids:
        raise RestError(400, 11502, "The 'item_ids' or 'item_group_ids' parameter is required.")
    if len(ids) > 20:
        raise RestError(400, 11508, "Too many item IDs: at most 20.", parameters={"item_ids": str(len(ids))})
    items, warnings = [], []
    for item_id in ids:
        try:
            items.append(detail(call, _legacy(call, item_id.strip())))
        except RestError as e:
            warnings.append(e.body("API_BROWSE")["errors"][0])
    return Reply({"items": items} | ({"warnings": warnings} if warnings else {}))


def get_items_by_item_group(call: RestCall) -> Reply:
    group = str(call.required("item_group_id", 11510))
    item = call.market.items.get(group)
    if item is None:
        raise RestError(404, 11510, "The item group Id was not found.", parameters={"item_group_id": group})
    return Reply({"items": [detail(call, item)], "commonDescriptions": []})


HANDLERS = {
    "buy.browse.search": search,
    "buy.browse.getItem": get_item,
    "buy.browse.getItemByLegacyId": get_item_by_legacy_id,
    "buy.browse.getItems": get_items,
    "buy.browse.getItemsByItemGroup": get_items_by_item_group,
}
