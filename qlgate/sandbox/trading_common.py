"""What every Trading API call of the emulator (``trading.py``) shares: the
failure it answers with (``Ack`` Failure and an ``Errors`` block, eBay's codes
and messages), the checks of a request's fields, and how an item is looked up
and described.

Kept apart so that the calls, grouped by who makes them (``trading_selling.py``,
``trading_buying.py``), and the request handling in ``trading.py`` all build on
it without importing one another.
"""

from __future__ import annotations

from typing import Any

from .state import Item, Marketplace
from .wire import Amount


class Failure(Exception):
    def __init__(
        self,
        code: int | str,
        short: str,
        long: str | None = None,
        param: str | None = None,
        classification: str = "RequestError",
    ):
        super().__init__(short)
        self.code, self.short, self.long, self.param, self.classification = (
            code,
            short,
            long or short,
            param,
            classification,
        )

    def errors(self) -> dict[str, Any]:
        block: dict[str, Any] = {
            "ShortMessage": self.short,
            "LongMessage": self.long,
            "ErrorCode": str(self.code),
            "SeverityCode": "Error",
        }
        if self.param:
            block["ErrorParameters"] = {"@ParamID": "0", "Value": self.param}
        block["ErrorClassification"] = self.classification
        return block


def missing(field: str) -> Failure:
    return Failure(
        37,
        "Input data is invalid.",
        f"Input data for tag <{field}> is invalid or missing. Please check API documentation.",
        field,
    )


def money(text: Any, field: str) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        raise missing(field) from None


class TradingCalls:
    """The base of the Trading API's call handlers: each takes the calling user and
    the request document and answers the response's fields."""

    market: Marketplace

    def _item(self, item_id: Any) -> Item:
        item = self.market.items.get(str(item_id or ""))
        if item is None:
            raise Failure(
                17,
                "Item cannot be accessed.",
                f"This item cannot be accessed because the listing has been deleted or you are not "
                f"the seller: {item_id}.",
                str(item_id or ""),
            )
        return item

    def _active(self, item_id: Any) -> Item:
        item = self._item(item_id)
        if not item.active:
            raise Failure(12302, "Auction ended.", f"Item {item.item_id} has ended.", item.item_id)
        return item

    def item_fields(self, item: Item) -> dict:
        return {
            "ItemID": item.item_id,
            "Country": item.country,
            "Currency": item.currency,
            "Description": item.description or None,
            "ListingDetails": {"StartTime": item.start, "EndTime": item.end, "ViewItemURL": item.view_url},
            "ListingType": item.listing_type,
            "Location": item.location,
            "PrimaryCategory": {"CategoryID": item.category_id, "CategoryName": item.category_name or None},
            "Quantity": item.quantity,
            "Seller": {"UserID": item.seller, "FeedbackScore": self.market.users[item.seller].feedback},
            "SellingStatus": {
                "BidCount": item.bid_count,
                "ConvertedCurrentPrice": Amount(item.price, item.currency),
                "CurrentPrice": Amount(item.price, item.currency),
                "HighBidder": {"UserID": item.high_bidder} if item.high_bidder else None,
                "MinimumToBid": Amount(item.minimum_to_bid or item.price, item.currency),
                "QuantitySold": item.quantity_sold,
                "ListingStatus": item.status,
            },
            "StartPrice": Amount(item.price, item.currency),
            "Title": item.title,
            "ConditionID": item.condition_id,
        }
