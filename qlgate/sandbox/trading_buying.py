"""The Trading API's calls a buyer makes (``trading.py`` dispatches them): bids and
purchases, the watch list, My eBay's buying lists, and looking up a user.

Apart from the seller's calls (``trading_selling.py``) and the request handling,
so that each group of handlers reads on its own.
"""

from __future__ import annotations

from typing import Any

from .state import User, increment
from .trading_common import Failure, TradingCalls, missing, money
from .wire import Amount, as_list, get


class BuyingCalls(TradingCalls):
    # ---------------------------------------------------------------- buying
    def place_offer(self, user: User, doc: dict) -> dict:
        for field in ("ItemID", "Offer.Action", "Offer.MaxBid", "Offer.Quantity"):
            if not get(doc, field):
                raise missing(field)
        item = self._active(get(doc, "ItemID"))
        if item.seller == user.user_id:
            raise Failure(12011, "Seller cannot bid.", "You cannot bid on or buy your own item.", item.item_id)
        amount = money(get(doc, "Offer.MaxBid"), "Offer.MaxBid")
        quantity = int(get(doc, "Offer.Quantity") or 1)
        action = get(doc, "Offer.Action")
        if action == "Bid":
            if item.listing_type not in ("Chinese", "Auction"):
                raise Failure(12004, "Invalid bid.", "Bids are only accepted on auctions.", item.item_id)
            if quantity != 1:
                raise Failure(12017, "Invalid quantity.", "An auction bid is for quantity 1.", "Offer.Quantity")
            minimum = item.minimum_to_bid if item.bid_count and item.minimum_to_bid is not None else item.price
            if amount < minimum:
                raise Failure(
                    12016, "Bid too low.", f"Your bid must be at least {minimum:.2f} {item.currency}.", "Offer.MaxBid"
                )
            self.market.bid(item, user.user_id, amount)
        elif action == "Purchase":
            if quantity > item.quantity - item.quantity_sold:
                raise Failure(12017, "Invalid quantity.", "Not enough items left.", "Offer.Quantity")
            item.quantity_sold += quantity
            if item.quantity_sold >= item.quantity:
                item.status = "Completed"
            item.high_bidder = user.user_id
        else:
            raise missing("Offer.Action")
        return {
            "SellingStatus": {
                "ConvertedCurrentPrice": Amount(item.price, item.currency),
                "CurrentPrice": Amount(item.price, item.currency),
                "HighBidder": {"UserID": item.high_bidder},
                "MinimumToBid": Amount(
                    item.minimum_to_bid
                    if item.minimum_to_bid is not None
                    else round(item.price + increment(item.price), 2),
                    item.currency,
                ),
            }
        }

    def _watch_counts(self, user: User) -> dict:
        return {"WatchListCount": len(user.watch), "WatchListMaximum": 100}

    def add_to_watch_list(self, user: User, doc: dict) -> dict:
        ids = [str(i) for i in as_list(get(doc, "ItemID"))]
        if not ids:
            raise missing("ItemID")
        items = [self._active(i) for i in ids]  # all or nothing
        for item in items:
            if item.item_id not in user.watch:
                user.watch.append(item.item_id)
        return self._watch_counts(user)

    def remove_from_watch_list(self, user: User, doc: dict) -> dict:
        if str(get(doc, "RemoveAllItems", "")).lower() == "true":
            user.watch.clear()
            return self._watch_counts(user)
        ids = [str(i) for i in as_list(get(doc, "ItemID"))]
        if not ids:
            raise missing("ItemID")
        unknown = [i for i in ids if i not in user.watch]
        if unknown:
            raise Failure(21002, "Item not in watch list.", f"Item {unknown[0]} is not in your watch list.", unknown[0])
        user.watch[:] = [i for i in user.watch if i not in ids]
        return self._watch_counts(user)

    def get_my_ebay_buying(self, user: User, doc: dict) -> dict:
        out: dict[str, Any] = {}
        watched = [self.market.items[i] for i in user.watch if i in self.market.items]
        if str(get(doc, "WatchList.Include", "true")).lower() != "false":
            out["WatchList"] = {
                "ItemArray": {"Item": [self.item_fields(i) for i in watched]} if watched else None,
                "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(watched)},
            }
        bids = [i for i in self.market.items.values() if user.user_id in i.max_bids]
        if bids and str(get(doc, "BidList.Include", "true")).lower() != "false":
            out["BidList"] = {
                "ItemArray": {"Item": [self.item_fields(i) for i in bids]},
                "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(bids)},
            }
        return out

    def get_user(self, user: User, doc: dict) -> dict:
        target = self.market.user(get(doc, "UserID") or user.user_id)
        if target is None:
            raise Failure(21, "Invalid UserID.", "The user does not exist.", "UserID")
        return {
            "User": {"FeedbackScore": target.feedback, "Status": "Confirmed", "UserID": target.user_id, "Site": "US"}
        }
