"""The Trading API's calls a buyer makes and the seller's answers to them
(``trading.py`` dispatches them): bids, purchases and best offers (PlaceOffer),
the bidders of an auction, the seller's answer to a best offer, the watch
list, and My eBay's buying lists.

A purchase (PlaceOffer ``Purchase``) and an accepted best offer are orders of
the shared marketplace (``market.buy``): Trading's GetOrders and the REST
Fulfillment API see them alike.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .state import Item, User, increment, stamp
from .trading_common import Failure, TradingCalls, flag, missing, money, need, number, scalar, texts
from .trading_state import BestOffer
from .wire import Amount, as_list, get

AUCTIONS = ("Chinese", "Auction")


class BuyingCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "PlaceOffer": "place_offer",
        "GetAllBidders": "get_all_bidders",
        "GetBestOffers": "get_best_offers",
        "RespondToBestOffer": "respond_to_best_offer",
        "AddToWatchList": "add_to_watch_list",
        "RemoveFromWatchList": "remove_from_watch_list",
        "GetMyeBayBuying": "get_my_ebay_buying",
    }

    # ---------------------------------------------------------------- offers
    def place_offer(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID", "Offer.Action", "Offer.MaxBid", "Offer.Quantity")
        item = self._active(scalar(doc, "ItemID"))
        if item.seller == user.user_id:
            raise Failure(12011, "Seller cannot bid.", "You cannot bid on or buy your own item.", item.item_id)
        amount = money(scalar(doc, "Offer.MaxBid"), "Offer.MaxBid")
        quantity = number(scalar(doc, "Offer.Quantity"), "Offer.Quantity", 1)
        action = scalar(doc, "Offer.Action")
        out: dict[str, Any] = {}
        if action == "Bid":
            if item.listing_type not in AUCTIONS:
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
            if item.listing_type in AUCTIONS:
                raise Failure(12004, "Invalid purchase.", "This auction has no Buy It Now price.", item.item_id)
            if quantity < 1 or quantity > item.quantity - item.quantity_sold:
                raise Failure(12017, "Invalid quantity.", "Not enough items left.", "Offer.Quantity")
            order = self.market.buy(item, user.user_id, quantity)
            item.high_bidder = user.user_id
            line = order.line_items[0]
            out = {"TransactionID": line.line_item_id, "OrderLineItemID": f"{item.item_id}-{line.line_item_id}"}
        elif action == "Offer":
            out = {"BestOffer": self._make_best_offer(user, item, amount, quantity, scalar(doc, "Offer.Message") or "")}
        else:
            raise missing("Offer.Action")
        return {
            **out,
            "SellingStatus": {
                "ConvertedCurrentPrice": Amount(item.price, item.currency),
                "CurrentPrice": Amount(item.price, item.currency),
                "HighBidder": {"UserID": item.high_bidder} if item.high_bidder else None,
                "MinimumToBid": Amount(
                    item.minimum_to_bid
                    if item.minimum_to_bid is not None
                    else round(item.price + increment(item.price), 2),
                    item.currency,
                ),
                "QuantitySold": item.quantity_sold,
                "ListingStatus": item.status,
            },
        }

    def _make_best_offer(self, user: User, item: Item, amount: float, quantity: int, message: str) -> str:
        if not self.market.trading.extras.get(item.item_id, {}).get("BestOfferEnabled"):
            raise Failure(
                21916004, "Best offer not enabled.", "This listing does not accept best offers.", item.item_id
            )
        if quantity < 1 or quantity > item.quantity - item.quantity_sold:
            raise Failure(12017, "Invalid quantity.", "Not enough items left.", "Offer.Quantity")
        offer = BestOffer(
            self.market.trading.new_id(5000000000), item.item_id, user.user_id, amount, quantity, stamp(), message
        )
        self.market.trading.best_offers[offer.best_offer_id] = offer
        return offer.best_offer_id

    def get_all_bidders(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID")
        item = self._item(scalar(doc, "ItemID"))
        if item.listing_type not in AUCTIONS:
            raise Failure(12004, "Not an auction.", f"Item {item.item_id} takes no bids.", item.item_id)
        bids = sorted(item.max_bids.items(), key=lambda kv: -kv[1])
        return {
            "BidArray": {
                "Offer": [
                    {
                        "Action": "Bid",
                        "Currency": item.currency,
                        "ItemID": item.item_id,
                        "MaxBid": Amount(amount if item.seller == user.user_id else item.price, item.currency),
                        "Quantity": 1,
                        "User": {"UserID": bidder},
                        "HighestBid": Amount(item.price, item.currency) if bidder == item.high_bidder else None,
                    }
                    for bidder, amount in bids
                ]
            }
            if bids
            else None,
            "HighBidder": item.high_bidder,
            "HighestBid": Amount(item.price, item.currency),
            "ListingStatus": item.status,
        }

    def _offer_fields(self, offer: BestOffer, currency: str) -> dict:
        return {
            "BestOfferID": offer.best_offer_id,
            "ExpirationTime": None,
            "Buyer": {"UserID": offer.buyer},
            "Price": Amount(offer.price, currency),
            "Status": offer.status,
            "Quantity": offer.quantity,
            "BuyerMessage": offer.message or None,
            "SellerMessage": offer.seller_message or None,
            "BestOfferCodeType": "BuyerBestOffer",
            "CounterOfferPrice": Amount(offer.counter_price, currency) if offer.counter_price is not None else None,
        }

    def get_best_offers(self, user: User, doc: dict) -> dict:
        item_id, offer_id = scalar(doc, "ItemID"), scalar(doc, "BestOfferID")
        status = scalar(doc, "BestOfferStatus") or "All"
        offers = [
            o
            for o in self.market.trading.best_offers.values()
            if (not item_id or o.item_id == str(item_id))
            and (not offer_id or o.best_offer_id == str(offer_id))
            and (status == "All" or o.status == status)
            and user.user_id in (o.buyer, self.market.items[o.item_id].seller)
        ]
        if item_id:
            item = self._item(item_id)
            if item.seller != user.user_id and not offers:
                raise Failure(17, "Item cannot be accessed.", "You are not the seller of this item.", item.item_id)
        if offer_id and not offers:
            raise Failure(21916003, "Invalid best offer.", f"Best offer {offer_id} does not exist.", str(offer_id))
        items = {o.item_id for o in offers}
        return {
            "ItemBestOffersArray": {
                "ItemBestOffers": [
                    {
                        "Role": "Seller" if self.market.items[i].seller == user.user_id else "Buyer",
                        "BestOfferArray": {
                            "BestOffer": [
                                self._offer_fields(o, self.market.items[i].currency) for o in offers if o.item_id == i
                            ]
                        },
                        "Item": self.item_fields(self.market.items[i]),
                    }
                    for i in sorted(items)
                ]
            }
            if offers
            else None
        }

    def respond_to_best_offer(self, user: User, doc: dict) -> dict:
        need(doc, "Action", "BestOfferID", "ItemID")
        item = self._own(user, scalar(doc, "ItemID"))
        action = str(scalar(doc, "Action"))
        if action not in ("Accept", "Decline", "Counter"):
            raise missing("Action")
        results = []
        for offer_id in texts(get(doc, "BestOfferID")):
            offer = self.market.trading.best_offers.get(offer_id)
            if offer is None or offer.item_id != item.item_id:
                raise Failure(21916003, "Invalid best offer.", f"Best offer {offer_id} is not on item {item.item_id}.")
            if offer.status != "Pending":
                raise Failure(21916005, "Best offer already answered.", f"Best offer {offer_id} is {offer.status}.")
            offer.seller_message = scalar(doc, "SellerResponse") or ""
            if action == "Accept":
                if not item.active or offer.quantity > item.quantity - item.quantity_sold:
                    raise Failure(12017, "Invalid quantity.", "Not enough items left for this offer.", offer_id)
                offer.status = "Accepted"
                self.market.buy(item, offer.buyer, offer.quantity, offer.price)
            elif action == "Decline":
                offer.status = "Declined"
            else:
                offer.counter_price = money(scalar(doc, "CounterOfferPrice"), "CounterOfferPrice")
                offer.status = "Countered"
            results.append({"BestOfferID": offer_id, "CallStatus": "Success"})
        return {"RespondToBestOffer": {"BestOffer": results}}

    # ---------------------------------------------------------------- the watch list
    def _watch_counts(self, user: User) -> dict:
        return {"WatchListCount": len(user.watch), "WatchListMaximum": 100}

    def add_to_watch_list(self, user: User, doc: dict) -> dict:
        ids = [str(i) for i in as_list(get(doc, "ItemID"))]
        if not ids:
            raise missing("ItemID")
        items = [self._active(i) for i in ids]  # all or nothing
        for item in items:
            if item.item_id not in user.watch:
                if len(user.watch) >= 100:
                    raise Failure(21000, "Watch list is full.", "A watch list holds at most 100 items.")
                user.watch.append(item.item_id)
        return self._watch_counts(user)

    def remove_from_watch_list(self, user: User, doc: dict) -> dict:
        if flag(scalar(doc, "RemoveAllItems", "")):
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

    def _list(self, items: list[Item]) -> dict:
        return {
            "ItemArray": {"Item": [self.item_fields(i) for i in items]} if items else None,
            "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(items)},
        }

    def get_my_ebay_buying(self, user: User, doc: dict) -> dict:
        def wanted(section: str) -> bool:
            return str(scalar(doc, f"{section}.Include", "true")).lower() != "false"

        out: dict[str, Any] = {}
        if wanted("WatchList"):
            out["WatchList"] = self._list([self.market.items[i] for i in user.watch if i in self.market.items])
        bids = [i for i in self.market.items.values() if user.user_id in i.max_bids]
        if bids and wanted("BidList"):
            out["BidList"] = self._list([i for i in bids if i.active])
        offers = [o for o in self.market.trading.best_offers.values() if o.buyer == user.user_id]
        if offers and wanted("BestOfferList"):
            out["BestOfferList"] = self._list([self.market.items[o.item_id] for o in offers])
        won = [(o, li) for o in self.market.orders_of(buyer=user.user_id) for li in o.line_items]
        if won and wanted("WonList"):
            out["WonList"] = {
                "OrderTransactionArray": {
                    "OrderTransaction": [{"Transaction": self.transaction_fields(o, li)} for o, li in won]
                },
                "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(won)},
            }
        lost = [i for i in bids if not i.active and i.high_bidder != user.user_id]
        if lost and wanted("LostList"):
            out["LostList"] = self._list(lost)
        return out
