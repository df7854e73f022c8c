"""The Trading API's lists of a seller's listings (``trading.py`` dispatches them):
GetSellerList and GetSellerEvents, by start, end and modification time."""

from __future__ import annotations

from typing import ClassVar

from .state import Item, User, stamp
from .trading_common import Failure, TradingCalls, need_one, number, page, scalar, texts
from .trading_listing import parse_time
from .wire import get


class SellerListCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "GetSellerList": "get_seller_list",
        "GetSellerEvents": "get_seller_events",
    }

    def _seller_items(self, seller: str, doc: dict, prefix: str = "") -> list[Item]:
        bounds = {}
        for which in ("StartTime", "EndTime", "ModTime"):
            bounds[which] = (
                parse_time(scalar(doc, f"{which}From"), f"{which}From"),
                parse_time(scalar(doc, f"{which}To"), f"{which}To"),
            )
            low, high = bounds[which]
            if low and high and low > high:
                raise Failure(21916213, "Invalid time range.", f"{which}From is after {which}To.", f"{which}From")
        out = []
        for item in self.market.items.values():
            if item.seller != seller:
                continue
            keep = True
            for which, attr in (("StartTime", item.start), ("EndTime", item.end), ("ModTime", item.start)):
                low, high = bounds[which]
                when = parse_time(attr, which)
                if (low and when and when < low) or (high and when and when > high):
                    keep = False
            if keep:
                out.append(item)
        return out

    def get_seller_list(self, user: User, doc: dict) -> dict:
        seller = str(scalar(doc, "UserID") or user.user_id)
        if self.market.user(seller) is None:
            raise Failure(21, "Invalid UserID.", f"The user {seller} does not exist.", "UserID")
        skus = set(texts(get(doc, "SKUArray.SKU")))
        items = [
            i
            for i in self._seller_items(seller, doc)
            if not skus or self.market.trading.extras.get(i.item_id, {}).get("SKU") in skus
        ]
        chosen, result = page(doc, items, 200)
        per_page = number(scalar(doc, "Pagination.EntriesPerPage"), "Pagination.EntriesPerPage", 200)
        page_number = number(scalar(doc, "Pagination.PageNumber"), "Pagination.PageNumber", 1)
        return {
            "PaginationResult": result,
            "HasMoreItems": page_number * per_page < len(items),
            "ItemArray": {"Item": [self.item_fields(i) for i in chosen]} if chosen else None,
            "ItemsPerPage": per_page,
            "PageNumber": page_number,
            "ReturnedItemCountActual": len(chosen),
            "Seller": {"UserID": seller},
        }

    def get_seller_events(self, user: User, doc: dict) -> dict:
        need_one(doc, "StartTimeFrom", "EndTimeFrom", "ModTimeFrom")
        items = self._seller_items(str(scalar(doc, "UserID") or user.user_id), doc)
        return {"TimeTo": stamp(), "ItemArray": {"Item": [self.item_fields(i) for i in items]} if items else None}
