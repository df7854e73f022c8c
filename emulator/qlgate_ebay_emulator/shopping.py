"""The Shopping API (``GET /shopping?callname=…``): public item and user data,
JSON with ``responseencoding=JSON``, XML otherwise; failures are ``Ack``
Failure with an ``Errors`` block and HTTP 200, as eBay answers them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .state import Item, Marketplace, stamp
from .wire import TRADING_NS, Amount, to_shopping_json, to_xml

BUILD = "E765_QLGATE_EMULATOR"


class Failure(Exception):
    def __init__(self, code: str, short: str, long: str | None = None, param: str | None = None):
        super().__init__(short)
        self.code, self.short, self.long, self.param = code, short, long or short, param

    def errors(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ShortMessage": self.short,
            "LongMessage": self.long,
            "ErrorCode": self.code,
            "SeverityCode": "Error",
        }
        if self.param:
            out["ErrorParameters"] = {"@ParamID": "0", "Value": self.param}
        out["ErrorClassification"] = "RequestError"
        return out


class Shopping:
    def __init__(self, market: Marketplace):
        self.market = market
        self.calls: dict[str, Callable[[Mapping[str, str]], dict]] = {
            "GeteBayTime": lambda q: {},
            "GetSingleItem": self.get_single_item,
            "GetMultipleItems": self.get_multiple_items,
            "GetItemStatus": self.get_item_status,
            "GetUserProfile": self.get_user_profile,
            "FindProducts": self.find_products,
            "FindHalfProducts": self.find_half_products,
            "FindPopularItems": self.find_popular_items,
            "GetCategoryInfo": self.get_category_info,
            "GetShippingCosts": self.get_shipping_costs,
            "FindPopularSearches": self.find_popular_searches,
            "FindReviewsAndGuides": lambda q: {"ReviewCount": 0},
        }

    def handle(self, query: Mapping[str, str]) -> tuple[str, str, str]:
        """(call name, content type, body)."""
        call = query.get("callname", "")
        version = query.get("version", "765")
        try:
            if query.get("appid") not in self.market.applications:
                raise Failure(
                    "1.20", "Invalid Application ID.", f"Application ID {query.get('appid')!r} is invalid.", "appid"
                )
            if not query.get("version"):
                raise Failure("1.21", "Missing version.", "The version parameter is required.", "version")
            handler = self.calls.get(call)
            if handler is None:
                raise Failure(
                    "1.23", "Unsupported API call.", f"The call {call or '(none)'} is not supported.", "callname"
                )
            envelope = {"Timestamp": stamp(), "Ack": "Success", "Build": BUILD, "Version": version, **handler(query)}
        except Failure as failure:
            envelope = {
                "Timestamp": stamp(),
                "Ack": "Failure",
                "Errors": failure.errors(),
                "Build": BUILD,
                "Version": version,
            }
        if (query.get("responseencoding") or "XML").upper() == "JSON":
            return call, "application/json", to_shopping_json(envelope)
        return call, "text/xml;charset=UTF-8", to_xml(f"{call or 'Unknown'}Response", TRADING_NS, envelope)

    def _item(self, item_id: str) -> Item:
        item = self.market.items.get(item_id.strip())
        if item is None:
            raise Failure(
                "10.12",
                "Invalid item ID.",
                f"Item {item_id} is invalid, not activated, or no longer in our database.",
                item_id,
            )
        return item

    def item(self, item: Item) -> dict:
        price = Amount(item.price, item.currency)
        return {
            "ItemID": item.item_id,
            "EndTime": item.end,
            "StartTime": item.start,
            "ViewItemURLForNaturalSearch": item.view_url,
            "ListingType": item.listing_type,
            "Location": item.location,
            "GalleryURL": item.gallery_url,
            "PostalCode": item.postal_code,
            "PrimaryCategoryID": item.category_id,
            "PrimaryCategoryName": item.category_name or None,
            "Quantity": item.quantity,
            "Seller": {"UserID": item.seller, "FeedbackScore": self.market.users[item.seller].feedback},
            "BidCount": item.bid_count,
            "ConvertedCurrentPrice": price,
            "CurrentPrice": price,
            "ListingStatus": item.status,
            "QuantitySold": item.quantity_sold,
            "Site": "US",
            "Title": item.title,
            "Country": item.country,
            "ConditionID": item.condition_id,
        }

    def _ids(self, query: Mapping[str, str]) -> list[str]:
        ids = [i for i in (query.get("ItemID") or "").split(",") if i.strip()]
        if not ids:
            raise Failure(
                "1.19",
                "Missing required input element.",
                "Required input element is missing from the request.",
                "ItemID",
            )
        return ids

    def get_single_item(self, query: Mapping[str, str]) -> dict:
        return {"Item": self.item(self._item(self._ids(query)[0]))}

    def get_multiple_items(self, query: Mapping[str, str]) -> dict:
        ids = self._ids(query)
        if len(ids) > 20:
            raise Failure("1.22", "Too many items.", "At most 20 item IDs per request.", "ItemID")
        found = [self.market.items[i] for i in ids if i in self.market.items]
        if not found:
            raise Failure("10.12", "Invalid item ID.", "None of the item IDs is valid.", ids[0])
        return {"Item": [self.item(i) for i in found]}

    def get_item_status(self, query: Mapping[str, str]) -> dict:
        found = [self.market.items[i] for i in self._ids(query) if i in self.market.items]
        return {
            "Item": [
                {
                    "ItemID": i.item_id,
                    "EndTime": i.end,
                    "ListingStatus": i.status,
                    "BidCount": i.bid_count,
                    "ConvertedCurrentPrice": Amount(i.price, i.currency),
                }
                for i in found
            ]
        }

    def get_user_profile(self, query: Mapping[str, str]) -> dict:
        user = self.market.user(query.get("UserID", ""))
        if user is None:
            raise Failure("10.1", "Invalid user ID.", f"User {query.get('UserID')!r} does not exist.", "UserID")
        return {
            "User": {
                "UserID": user.user_id,
                "FeedbackPrivate": False,
                "FeedbackScore": user.feedback,
                "NewUser": False,
                "RegistrationSite": "US",
                "Status": "Confirmed",
            }
        }

    def find_products(self, query: Mapping[str, str]) -> dict:
        keywords = query.get("QueryKeywords", "")
        items = self.market.search(keywords=keywords)[: int(query.get("MaxEntries") or 5)]
        return {
            "Product": [
                {"Title": i.title, "ProductID": {"@type": "Reference", "Value": i.item_id}, "ItemCount": 1}
                for i in items
            ]
            or None,
            "TotalProducts": len(items),
            "PageNumber": 1,
            "ApproximatePages": 1,
            "MoreResults": False,
        }

    def find_half_products(self, query: Mapping[str, str]) -> dict:
        """FindHalfProducts: FindProducts' answer with the products inside ``Products``
        (eBay's HalfProductsType), the shape ql.io's own tests of the call read."""
        found = self.find_products(query)
        return {"Products": {"Product": found.pop("Product")}, **found}

    def find_popular_items(self, query: Mapping[str, str]) -> dict:
        items = self.market.search(keywords=query.get("QueryKeywords"), category=query.get("CategoryID"))
        return {"ItemArray": {"Item": [self.item(i) for i in items[: int(query.get("MaxEntries") or 5)]]}}

    def get_category_info(self, query: Mapping[str, str]) -> dict:
        category = query.get("CategoryID", "")
        names = {i.category_id: i.category_name for i in self.market.items.values()}
        if category not in names and category != "-1":
            raise Failure("10.4", "Invalid category ID.", f"Category {category} does not exist.", "CategoryID")
        return {
            "CategoryArray": {
                "Category": {
                    "CategoryID": category,
                    "CategoryName": names.get(category, "Root"),
                    "LeafCategory": category != "-1",
                }
            },
            "CategoryCount": 1,
        }

    def get_shipping_costs(self, query: Mapping[str, str]) -> dict:
        self._item(query.get("ItemID", ""))
        return {"ShippingCostSummary": {"ShippingServiceCost": Amount(2.5), "ShippingType": "Flat"}}

    def find_popular_searches(self, query: Mapping[str, str]) -> dict:
        words = sorted({w.lower() for i in self.market.items.values() for w in i.title.split() if len(w) > 3})
        return {"PopularSearchResult": {"QueryKeywords": " ".join(words[:10])}}
