"""The Finding API: ``POST`` with an XML body and ``X-EBAY-SOA-*`` headers, or
``GET`` with URL parameters; XML by default, eBay's Finding JSON on request.
Searches run over the shared marketplace state, with pagination.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .catalogue import condition_names
from .search import Query, iso_stamp
from .state import Item, Marketplace, stamp
from .wire import FINDING_NS, Amount, BadRequest, as_list, get, parse_request, to_finding_json, to_xml

VERSION = "1.13.0"
SEARCHES = (
    "findItemsByKeywords",
    "findItemsAdvanced",
    "findItemsByCategory",
    "findCompletedItems",
    "findItemsByProduct",
    "findItemsIneBayStores",
    "findItemsByImage",
    "findItemsForFavoriteSearch",
)


class Failure(Exception):
    def __init__(self, error_id: int, message: str, category: str = "Request"):
        super().__init__(message)
        self.error_id, self.message, self.category = error_id, message, category

    def block(self) -> dict[str, Any]:
        return {
            "error": {
                "errorId": self.error_id,
                "domain": "Marketplace",
                "severity": "Error",
                "category": self.category,
                "message": self.message,
                "subdomain": "Search",
            }
        }


_LISTING_TYPES = {"Chinese": "Auction", "FixedPriceItem": "FixedPrice", "StoresFixedPrice": "StoreInventory"}
CONDITION_NAMES = condition_names()
_CONDITION_IDS = {name.lower(): cid for cid, name in CONDITION_NAMES.items()} | {"new other": 1500, "refurbished": 2500}
SORTS = {
    "BestMatch": "best",
    "PricePlusShippingLowest": "price+shipping",
    "PricePlusShippingHighest": "-price+shipping",
    "CurrentPriceHighest": "-price",
    "EndTimeSoonest": "ending",
    "StartTimeNewest": "newest",
}
FILTER_NAMES = (
    "Condition",
    "ListingType",
    "MinPrice",
    "MaxPrice",
    "Currency",
    "Seller",
    "ExcludeSeller",
    "FreeShippingOnly",
    "EndTimeFrom",
    "EndTimeTo",
    "LocatedIn",
    "BestOfferOnly",
    "HideDuplicateItems",
    "AvailableTo",
    "ListedIn",
)


def _item_filters(doc: dict) -> list[tuple[str, list[str], str | None]]:
    """(name, values, paramValue) of the request's itemFilters — ``itemFilter`` elements
    of a POST body, or GET's ``itemFilter(0).name=…&itemFilter(0).value(1)=…``."""
    raw = as_list(doc.get("itemFilter")) + [v for k, v in sorted(doc.items()) if k.startswith("itemFilter(")]
    out = []
    for f in raw:
        if not isinstance(f, dict):
            continue
        values = as_list(f.get("value")) + [v for k, v in sorted(f.items()) if k.startswith("value(")]
        out.append((str(f.get("name", "")), [str(v) for v in values], f.get("paramValue")))
    return out


def finding_query(doc: dict, *, completed: bool) -> Query:
    """A Finding request's keywords, categoryId, itemFilters and sortOrder as a search."""
    categories = [str(c) for c in as_list(doc.get("categoryId"))] or None
    query = Query(get(doc, "keywords") or None, categories, completed=completed)
    query.sort = SORTS.get(str(get(doc, "sortOrder") or "BestMatch"), "best")
    for name, values, param in _item_filters(doc):
        if name not in FILTER_NAMES:
            raise Failure(3, f"Invalid item filter name: {name}.")
        if not values:
            raise Failure(3, f"Item filter {name} needs a value.")
        try:
            if name in ("MinPrice", "MaxPrice"):
                setattr(query, "min_price" if name == "MinPrice" else "max_price", float(values[0]))
                query.currency = str(param) if param else query.currency
            elif name == "Currency":
                query.currency = values[0]
            elif name == "Condition":
                query.conditions = {int(v) if v.isdigit() else _CONDITION_IDS.get(v.lower(), -1) for v in values} | (
                    {1500, 2000, 2500} if "New" in values else set()
                )
            elif name == "ListingType" and "All" not in values:
                types = {"Auction": "AUCTION", "AuctionWithBIN": "AUCTION", "FixedPrice": "FIXED_PRICE"}
                query.buying = {types.get(v, "FIXED_PRICE") for v in values}
            elif name == "BestOfferOnly" and values[0].lower() == "true":
                query.buying = {"BEST_OFFER"}
            elif name == "Seller":
                query.sellers = values
            elif name == "ExcludeSeller":
                query.exclude_sellers = values
            elif name == "FreeShippingOnly":
                query.free_shipping = values[0].lower() == "true"
            elif name in ("EndTimeFrom", "EndTimeTo"):
                setattr(query, "end_from" if name == "EndTimeFrom" else "end_to", iso_stamp(values[0]))
            elif name == "LocatedIn":
                query.countries = set(values)
        except ValueError:
            raise Failure(3, f"Invalid value for item filter {name}: {values[0]}.") from None
    return query


def _query_fields(query: Mapping[str, str]) -> dict[str, Any]:
    """GET parameters: dotted names become nested members (``paginationInput.entriesPerPage``)."""
    out: dict[str, Any] = {}
    for key, value in query.items():
        if key.isupper() or key.startswith(("OPERATION", "SERVICE", "SECURITY", "RESPONSE", "REST", "GLOBAL")):
            continue
        node = out
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


class Finding:
    def __init__(self, market: Marketplace):
        self.market = market

    def handle(
        self, method: str, headers: Mapping[str, str], query: Mapping[str, str], body: bytes
    ) -> tuple[str, int, str, str]:
        """(operation, HTTP status, content type, body) for one request."""
        operation = headers.get("x-ebay-soa-operation-name") or query.get("OPERATION-NAME", "")
        app = headers.get("x-ebay-soa-security-appname") or query.get("SECURITY-APPNAME", "")
        fmt = (headers.get("x-ebay-soa-response-data-format") or query.get("RESPONSE-DATA-FORMAT") or "XML").upper()
        # getVersion names the service's version, nothing of an account: it answers without an
        # application ID, as ql.io's own tree expects (its getVersion table sends none)
        if app not in self.market.applications and operation != "getVersion":
            error = {
                "error": {
                    "errorId": 11002,
                    "domain": "Security",
                    "severity": "Error",
                    "category": "System",
                    "message": f"Authentication failed : Invalid Application: {app}",
                    "subdomain": "Authentication",
                }
            }
            return operation, 500, *self._render("errorMessage", error, fmt)
        try:
            if method == "POST":
                try:
                    root, doc = parse_request(body)
                except BadRequest as e:
                    raise Failure(3, f"Unable to parse the request: {e}") from None
                # the operation header names the search; a body of another search's request is
                # read for its fields, as eBay read ql.io's tree (findItemsByCategory sends the
                # findItemsAdvanced template, findItemsIneBayStores the findCompletedItems one)
                searches = operation in SEARCHES and root.removesuffix("Request") in SEARCHES
                if root != operation + "Request" and not searches:
                    raise Failure(5, f"Root element {root} does not match the operation {operation}.")
            else:
                doc = _query_fields(query)
            fields = self._operation(operation, doc)
            envelope = {"ack": "Success", "version": VERSION, "timestamp": stamp(), **fields}
        except Failure as failure:
            envelope = {"ack": "Failure", "errorMessage": failure.block(), "version": VERSION, "timestamp": stamp()}
        return operation, 200, *self._render(f"{operation or 'unknown'}Response", envelope, fmt)

    def _render(self, root: str, body: dict, fmt: str) -> tuple[str, str]:
        if fmt == "JSON":
            return "application/json", to_finding_json(root, body)
        return "text/xml;charset=UTF-8", to_xml(root, FINDING_NS, body)

    def _operation(self, operation: str, doc: dict) -> dict:
        if operation == "getVersion":
            return {}
        if operation == "getHistograms":
            category = get(doc, "categoryId")
            if not category:
                raise Failure(2, "Category ID value required.")
            items = self.market.search(category=str(category))
            counts = Counter(i.condition_id for i in items)
            return {
                "conditionHistogramContainer": {
                    "conditionHistogram": [
                        {"condition": {"conditionId": c}, "count": n} for c, n in sorted(counts.items())
                    ]
                    or None
                }
            }
        if operation == "getSearchKeywordsRecommendation":
            keywords = get(doc, "keywords")
            if not keywords:
                raise Failure(2, "Keywords value required.")
            return {"keywords": " ".join(str(keywords).split()).lower()}
        if operation not in SEARCHES:
            raise Failure(1, f"Operation {operation or '(none)'} is not supported.")
        keywords = get(doc, "keywords")
        category = get(doc, "categoryId")
        if operation == "findItemsByKeywords" and not keywords:
            raise Failure(2, "Keywords value required.")
        if operation == "findItemsByCategory" and not category:
            raise Failure(2, "Category ID value required.")
        if operation == "findItemsAdvanced" and not (keywords or category):
            raise Failure(2, "Keywords or category ID are required.")
        query = finding_query(doc, completed=operation == "findCompletedItems")
        found = self.market.find(query)
        try:
            per_page = max(1, min(100, int(get(doc, "paginationInput.entriesPerPage", 100) or 100)))
            page = max(1, min(100, int(get(doc, "paginationInput.pageNumber", 1) or 1)))
        except (TypeError, ValueError):
            raise Failure(6, "Invalid pagination input.") from None
        chosen = found[(page - 1) * per_page : page * per_page]
        return {
            "searchResult": {"@count": len(chosen), "item": [self.item(i) for i in chosen] or None},
            "paginationOutput": {
                "pageNumber": page,
                "entriesPerPage": per_page,
                "totalPages": max(1, -(-len(found) // per_page)),
                "totalEntries": len(found),
            },
            "itemSearchURL": f"http://www.ebay.com/sch/i.html?_nkw={(keywords or '').replace(' ', '+')}",
        }

    def item(self, item: Item) -> dict:
        price = Amount(item.price, item.currency, "currencyId")
        return {
            "itemId": item.item_id,
            "title": item.title,
            "globalId": "EBAY-US",
            "primaryCategory": {"categoryId": item.category_id, "categoryName": item.category_name or None},
            "galleryURL": item.gallery_url,
            "viewItemURL": item.view_url,
            "location": item.location,
            "country": item.country,
            "postalCode": item.postal_code,
            "sellerInfo": {"sellerUserName": item.seller, "feedbackScore": self.market.users[item.seller].feedback},
            "sellingStatus": {
                "currentPrice": price,
                "convertedCurrentPrice": price,
                "bidCount": item.bid_count,
                "sellingState": item.status,
            },
            "shippingInfo": {
                "shippingServiceCost": Amount(item.shipping_cost, item.currency, "currencyId"),
                "shippingType": "Flat" if item.shipping_cost else "Free",
                "shipToLocations": "Worldwide",
            },
            "listingInfo": {
                "bestOfferEnabled": item.best_offer,
                "buyItNowAvailable": False,
                "startTime": item.start,
                "endTime": item.end,
                "listingType": _LISTING_TYPES.get(item.listing_type, item.listing_type),
                "gift": False,
            },
            "condition": {
                "conditionId": item.condition_id,
                "conditionDisplayName": CONDITION_NAMES.get(item.condition_id),
            },
        }
