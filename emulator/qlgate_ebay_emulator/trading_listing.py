"""The Trading API's listing calls (``trading.py`` dispatches them): listing items
one by one or five at a time, verifying, revising, ending and relisting them,
revising stock and prices, and reading them back as eBay does.

The item fields every group answers with are in ``trading_common.py``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, ClassVar

from .state import Item, User, now, stamp
from .trading_common import Failure, TradingCalls, flag, missing, money, need, need_one, number, scalar
from .wire import Amount, as_list, get

DURATIONS = {"Days_1": 1, "Days_3": 3, "Days_5": 5, "Days_7": 7, "Days_10": 10, "Days_30": 30, "GTC": 30}
FIXED = {"FixedPrice", "FixedPriceItem", "StoresFixedPrice"}
FEES = ("AuctionLengthFee", "BoldFee", "FeaturedFee", "GalleryFee", "InsertionFee", "ListingFee")


def fees(currency: str) -> dict:
    return {
        "Fee": [{"Name": n, "Fee": Amount(0.1 if n in ("InsertionFee", "ListingFee") else 0.0, currency)} for n in FEES]
    }


def parse_time(value: Any, field: str) -> datetime | None:
    if value in (None, ""):
        return None
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise missing(field) from None


class ListingCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "AddItem": "add_item",
        "AddFixedPriceItem": "add_fixed_price_item",
        "VerifyAddItem": "verify_add_item",
        "VerifyAddFixedPriceItem": "verify_add_fixed_price_item",
        "AddItems": "add_items",
        "ReviseItem": "revise_item",
        "ReviseFixedPriceItem": "revise_fixed_price_item",
        "ReviseInventoryStatus": "revise_inventory_status",
        "AddToItemDescription": "add_to_item_description",
        "EndItem": "end_item",
        "EndFixedPriceItem": "end_fixed_price_item",
        "EndItems": "end_items",
        "RelistItem": "relist_item",
        "RelistFixedPriceItem": "relist_fixed_price_item",
        "VerifyRelistItem": "verify_relist_item",
        "AddSecondChanceItem": "add_second_chance_item",
        "GetItem": "get_item",
    }

    # ---------------------------------------------------------------- listing
    def new_listing(self, user: User, fields: dict, store: bool, fixed: bool = False) -> Item:
        """A listing from an ``Item`` element, every field checked before anything is kept:
        a call that fails stores nothing."""
        for name in ("Title", "PrimaryCategory.CategoryID", "StartPrice", "Currency", "Country", "ListingDuration"):
            if not scalar(fields, name):
                raise missing("Item." + name)
        duration = scalar(fields, "ListingDuration")
        if duration not in DURATIONS:
            raise missing("Item.ListingDuration")
        category_id = str(scalar(fields, "PrimaryCategory.CategoryID"))
        category = self.market.categories.get(category_id)
        listing_type = scalar(fields, "ListingType") or ("FixedPriceItem" if fixed else "Chinese")
        if fixed and listing_type not in FIXED:
            raise Failure(21916286, "Invalid listing type.", "AddFixedPriceItem lists fixed-price items only.")
        start = now()
        item = Item(
            "0",
            scalar(fields, "Title"),
            category_id,
            category.name if category is not None else "",
            money(scalar(fields, "StartPrice"), "Item.StartPrice"),
            scalar(fields, "Currency"),
            listing_type,
            user.user_id,
            stamp(start),
            stamp(start + timedelta(days=DURATIONS[duration])),
            quantity=number(scalar(fields, "Quantity"), "Item.Quantity", 1),
            location=scalar(fields, "Location"),
            country=scalar(fields, "Country"),
            postal_code=scalar(fields, "PostalCode"),
            condition_id=number(scalar(fields, "ConditionID"), "Item.ConditionID", 1000),
            description=scalar(fields, "Description", "") or "",
        )
        if item.quantity < 1 or (listing_type not in FIXED and item.quantity != 1):
            raise Failure(515, "Invalid quantity.", "An auction lists exactly one item.", "Item.Quantity")
        extras = {
            "SKU": scalar(fields, "SKU"),
            "BuyItNowPrice": scalar(fields, "BuyItNowPrice"),
            "BestOfferEnabled": flag(scalar(fields, "BestOfferDetails.BestOfferEnabled")),
            "Fields": fields,
        }
        if store:
            item.item_id = self.market.new_item_id()
            self.market.add(item)
            self.market.trading.extras[item.item_id] = extras
        return item

    def _listed(self, item: Item) -> dict:
        return {"ItemID": item.item_id, "StartTime": item.start, "EndTime": item.end, "Fees": fees(item.currency)}

    def add_item(self, user: User, doc: dict, store: bool = True) -> dict:
        return self._listed(self.new_listing(user, get(doc, "Item") or {}, store))

    def add_fixed_price_item(self, user: User, doc: dict) -> dict:
        out = self._listed(self.new_listing(user, get(doc, "Item") or {}, True, fixed=True))
        return {**out, "SKU": scalar(doc, "Item.SKU")}

    def verify_add_item(self, user: User, doc: dict) -> dict:
        return self.add_item(user, doc, store=False)

    def verify_add_fixed_price_item(self, user: User, doc: dict) -> dict:
        return self._listed(self.new_listing(user, get(doc, "Item") or {}, False, fixed=True))

    def add_items(self, user: User, doc: dict) -> dict:
        containers = as_list(get(doc, "AddItemRequestContainer"))
        if not containers:
            raise missing("AddItemRequestContainer")
        if len(containers) > 5:
            raise Failure(21916284, "Too many items.", "AddItems lists at most 5 items at a time.")
        out = []
        for c in containers:
            if not isinstance(c, dict) or not scalar(c, "MessageID"):
                raise missing("AddItemRequestContainer.MessageID")
            try:
                out.append(
                    {**self._listed(self.new_listing(user, c.get("Item") or {}, True)), "CorrelationID": c["MessageID"]}
                )
            except Failure as f:
                out.append({"CorrelationID": c["MessageID"], "Errors": f.errors()})
        return {"AddItemResponseContainer": out}

    # ---------------------------------------------------------------- revising
    def _by_id_or_sku(self, user: User, item_id: Any, sku: Any) -> Item:
        if item_id:
            return self._own(user, item_id)
        for iid, extra in self.market.trading.extras.items():
            item = self.market.items.get(iid)
            if item and item.seller == user.user_id and extra.get("SKU") == sku and item.active:
                return item
        raise Failure(21916270, "SKU not found.", f"No active listing of yours has SKU {sku}.", str(sku))

    def _revise(self, item: Item, fields: dict) -> None:
        """Revises an item by an ``Item`` element's fields, all checked before any is changed."""
        if not item.active:
            raise Failure(291, "Auction ended.", f"Item {item.item_id} has ended and cannot be revised.", item.item_id)
        title, description = scalar(fields, "Title"), scalar(fields, "Description")
        price, quantity = scalar(fields, "StartPrice"), scalar(fields, "Quantity")
        category_id, sku = scalar(fields, "PrimaryCategory.CategoryID"), scalar(fields, "SKU")
        if (title or price) and item.bid_count:
            which = "title" if title else "price"
            param = "Item.Title" if title else "Item.StartPrice"
            raise Failure(10039, f"Cannot revise {which}.", f"An item with bids keeps its {which}.", param)
        new_price = money(price, "Item.StartPrice") if price else None
        new_quantity = number(quantity, "Item.Quantity") if quantity else None
        if new_quantity is not None and new_quantity < item.quantity_sold + 1 and item.listing_type in FIXED:
            raise Failure(21916271, "Invalid quantity.", "Quantity must exceed the quantity sold.", "Item.Quantity")
        if title:
            item.title = title
        if new_price is not None:
            item.price = new_price
        if new_quantity is not None:
            item.quantity = new_quantity
        if description:
            item.description = description
        if category_id:
            item.category_id = str(category_id)
        if sku:
            self.market.trading.extras.setdefault(item.item_id, {})["SKU"] = sku
        if title or category_id:
            self.market.reindex(item)  # searches find it by its new title and category

    def revise_item(self, user: User, doc: dict) -> dict:
        need(doc, "Item.ItemID")
        item = self._own(user, scalar(doc, "Item.ItemID"))
        self._revise(item, get(doc, "Item") or {})
        return self._listed(item)

    def revise_fixed_price_item(self, user: User, doc: dict) -> dict:
        need(doc, "Item")
        need_one(doc, "Item.ItemID", "Item.SKU")
        item = self._by_id_or_sku(user, scalar(doc, "Item.ItemID"), scalar(doc, "Item.SKU"))
        if item.listing_type not in FIXED:
            raise Failure(21916286, "Not a fixed-price item.", "Use ReviseItem for auctions.", item.item_id)
        self._revise(item, get(doc, "Item") or {})
        return {**self._listed(item), "SKU": self.market.trading.extras.get(item.item_id, {}).get("SKU")}

    def revise_inventory_status(self, user: User, doc: dict) -> dict:
        statuses = as_list(get(doc, "InventoryStatus"))
        if not statuses:
            raise missing("InventoryStatus")
        if len(statuses) > 4:
            raise Failure(21916284, "Too many items.", "ReviseInventoryStatus revises at most 4 listings.")
        changed = []
        revisions = []
        for s in statuses:  # all checked before any is revised
            s = s if isinstance(s, dict) else {}
            item_id, sku = scalar(s, "ItemID"), scalar(s, "SKU")
            if not item_id and not sku:
                raise missing("InventoryStatus.ItemID")
            fields = {k: scalar(s, k) for k in ("StartPrice", "Quantity") if k in s}
            money(fields.get("StartPrice") or 0, "InventoryStatus.StartPrice")
            number(fields.get("Quantity"), "InventoryStatus.Quantity", 0)
            revisions.append((self._by_id_or_sku(user, item_id, sku), fields))
        for item, fields in revisions:
            self._revise(item, fields)
            changed.append(item)
        return {
            "InventoryStatus": [
                {
                    "SKU": self.market.trading.extras.get(i.item_id, {}).get("SKU"),
                    "ItemID": i.item_id,
                    "StartPrice": Amount(i.price, i.currency),
                    "Quantity": i.quantity - i.quantity_sold,
                }
                for i in changed
            ],
            "Fees": [{"ItemID": i.item_id, **fees(i.currency)} for i in changed],
        }

    def add_to_item_description(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID", "Description")
        item = self._own(user, scalar(doc, "ItemID"))
        if not item.active:
            raise Failure(291, "Auction ended.", f"Item {item.item_id} has ended.", item.item_id)
        item.description = f"{item.description}<hr>Added {stamp()}: {scalar(doc, 'Description')}"
        return {}

    # ---------------------------------------------------------------- ending and relisting
    def end(self, user: User, item_id: Any, reason: Any) -> Item:
        item = self._own(user, item_id)
        if not item.active:
            raise Failure(1047, "Auction already closed.", f"Item {item.item_id} has already ended.", item.item_id)
        if not reason:
            raise missing("EndingReason")
        item.status = "Completed"
        item.end = stamp()
        if item.high_bidder and item.listing_type not in FIXED and item.bid_count:
            self.market.buy(item, item.high_bidder, 1, item.price)  # the auction is won
            item.status = "Completed"
        return item

    def end_item(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID", "EndingReason")
        return {"EndTime": self.end(user, scalar(doc, "ItemID"), scalar(doc, "EndingReason")).end}

    def end_fixed_price_item(self, user: User, doc: dict) -> dict:
        need(doc, "EndingReason")
        need_one(doc, "ItemID", "SKU")
        item = self._by_id_or_sku(user, scalar(doc, "ItemID"), scalar(doc, "SKU"))
        return {"EndTime": self.end(user, item.item_id, scalar(doc, "EndingReason")).end, "SKU": scalar(doc, "SKU")}

    def end_items(self, user: User, doc: dict) -> dict:
        containers = as_list(get(doc, "EndItemRequestContainer"))
        if not containers:
            raise missing("EndItemRequestContainer")
        out = []
        for c in containers:
            c = c if isinstance(c, dict) else {}
            if not c.get("MessageID"):
                raise missing("EndItemRequestContainer.MessageID")
            try:
                if not scalar(c, "ItemID"):
                    raise missing("EndItemRequestContainer.ItemID")
                ended = self.end(user, scalar(c, "ItemID"), scalar(c, "EndingReason"))
                out.append({"EndTime": ended.end, "CorrelationID": c["MessageID"]})
            except Failure as f:
                out.append({"CorrelationID": c["MessageID"], "Errors": f.errors()})
        return {"EndItemResponseContainer": out}

    def relist(self, user: User, doc: dict, store: bool = True, fixed: bool | None = None) -> dict:
        need(doc, "Item", "Item.ItemID")
        old = self._own(user, scalar(doc, "Item.ItemID"))
        if old.active:
            raise Failure(21916750, "Item cannot be relisted.", f"Item {old.item_id} is still active.", old.item_id)
        if fixed is not None and (old.listing_type in FIXED) != fixed:
            which = "RelistFixedPriceItem" if old.listing_type in FIXED else "RelistItem"
            raise Failure(21916286, "Wrong call for this listing type.", f"Relist item {old.item_id} with {which}.")
        days = (
            datetime.fromisoformat(old.end.replace("Z", "+00:00"))
            - datetime.fromisoformat(old.start.replace("Z", "+00:00"))
        ).days
        fields: dict[str, Any] = {
            "Title": old.title,
            "PrimaryCategory": {"CategoryID": old.category_id},
            "StartPrice": old.price,
            "Currency": old.currency,
            "Country": old.country or "US",
            "ListingDuration": next((k for k, v in DURATIONS.items() if v == days), "Days_7"),
            "ListingType": old.listing_type,
            "Quantity": max(1, old.quantity - old.quantity_sold) if old.listing_type in FIXED else 1,
            "Location": old.location,
            "PostalCode": old.postal_code,
            "ConditionID": old.condition_id,
            "Description": old.description,
        }
        given = get(doc, "Item")
        for key, value in (given if isinstance(given, dict) else {}).items():
            if key != "ItemID":
                fields[key] = value
        item = self.new_listing(user, fields, store)
        return self._listed(item)

    def relist_item(self, user: User, doc: dict) -> dict:
        return self.relist(user, doc)

    def relist_fixed_price_item(self, user: User, doc: dict) -> dict:
        return self.relist(user, doc, fixed=True)

    def verify_relist_item(self, user: User, doc: dict) -> dict:
        return self.relist(user, doc, store=False)

    def add_second_chance_item(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID", "RecipientBidderUserID", "Duration")
        old = self._own(user, scalar(doc, "ItemID"))
        bidder = str(scalar(doc, "RecipientBidderUserID"))
        if old.active or bidder not in old.max_bids or bidder == old.high_bidder:
            raise Failure(
                21916480,
                "Invalid second chance offer.",
                f"{bidder} is not an unsuccessful bidder on ended item {old.item_id}.",
            )
        days = {"Days_1": 1, "Days_3": 3, "Days_5": 5, "Days_7": 7}.get(str(scalar(doc, "Duration")))
        if days is None:
            raise missing("Duration")
        price = old.max_bids[bidder]
        item = self.new_listing(
            user,
            {
                "Title": old.title,
                "PrimaryCategory": {"CategoryID": old.category_id},
                "StartPrice": price,
                "Currency": old.currency,
                "Country": old.country or "US",
                "ListingDuration": "Days_7",
                "ListingType": "FixedPriceItem",
                "Description": old.description,
            },
            True,
        )
        item.end = stamp(now() + timedelta(days=days))
        self.market.trading.extras[item.item_id]["SecondChanceFor"] = bidder
        return {"ItemID": item.item_id, "StartTime": item.start, "EndTime": item.end}

    # ---------------------------------------------------------------- reading
    def get_item(self, user: User, doc: dict) -> dict:
        need_one(doc, "ItemID", "SKU")
        item = (
            self._item(scalar(doc, "ItemID"))
            if scalar(doc, "ItemID")
            else self._by_id_or_sku(user, None, scalar(doc, "SKU"))
        )
        fields = self.item_fields(item)
        extra = self.market.trading.extras.get(item.item_id, {})
        if extra.get("SKU"):
            fields["SKU"] = extra["SKU"]
        watchers = sum(item.item_id in u.watch for u in self.market.users.values())
        return {"Item": {**fields, "WatchCount": watchers}}
