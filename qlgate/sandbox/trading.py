"""The Trading API (``POST /ws/api.dll``): checks what eBay checks (call-name,
compatibility-level and site headers, the root element, the auth token, the
application keys when sent, required fields) and answers every failure as
``Ack`` Failure with an ``Errors`` block, never a crash.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Callable

from .state import Item, Marketplace, User, increment, now, stamp
from .wire import TRADING_NS, Amount, BadRequest, as_list, get, parse_request, to_xml

BUILD = "E737_QLGATE_EMULATOR"
DURATIONS = {"Days_1": 1, "Days_3": 3, "Days_5": 5, "Days_7": 7, "Days_10": 10, "Days_30": 30, "GTC": 30}


class Failure(Exception):
    def __init__(self, code: int | str, short: str, long: str | None = None, param: str | None = None,
                 classification: str = "RequestError"):
        super().__init__(short)
        self.code, self.short, self.long, self.param, self.classification = code, short, long or short, param, classification

    def errors(self) -> dict[str, Any]:
        block: dict[str, Any] = {"ShortMessage": self.short, "LongMessage": self.long, "ErrorCode": str(self.code),
                                 "SeverityCode": "Error"}
        if self.param:
            block["ErrorParameters"] = {"@ParamID": "0", "Value": self.param}
        block["ErrorClassification"] = self.classification
        return block


def _missing(field: str) -> Failure:
    return Failure(37, "Input data is invalid.",
                   f"Input data for tag <{field}> is invalid or missing. Please check API documentation.", field)


def _money(text: Any, field: str) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        raise _missing(field) from None


class Trading:
    def __init__(self, market: Marketplace):
        self.market = market
        self.calls: dict[str, Callable[[User, dict], dict]] = {
            "GeteBayOfficialTime": lambda user, doc: {},
            "GetUser": self.get_user,
            "AddItem": self.add_item, "AddFixedPriceItem": self.add_item,
            "VerifyAddItem": lambda user, doc: self.add_item(user, doc, store=False),
            "VerifyAddFixedPriceItem": lambda user, doc: self.add_item(user, doc, store=False),
            "ReviseItem": self.revise_item, "EndItem": self.end_item, "GetItem": self.get_item,
            "GetSellerList": self.get_seller_list, "PlaceOffer": self.place_offer,
            "AddToWatchList": self.add_to_watch_list, "RemoveFromWatchList": self.remove_from_watch_list,
            "GetMyeBayBuying": self.get_my_ebay_buying,
            "AddSellingManagerProduct": self.add_product, "DeleteSellingManagerProduct": self.delete_product,
            "GetSellingManagerInventory": self.get_inventory,
        }

    # ---------------------------------------------------------------- the request
    def handle(self, headers: dict[str, str], body: bytes) -> tuple[str, str]:
        """(call name, response XML) for one request."""
        call = headers.get("x-ebay-api-call-name", "")
        version = headers.get("x-ebay-api-compatibility-level", "737")
        try:
            if not call:
                raise Failure(2, "Unsupported API call.", "The API call is missing: send X-EBAY-API-CALL-NAME.")
            if "x-ebay-api-compatibility-level" not in headers:
                raise Failure(10006, "Missing compatibility level.",
                              "Header X-EBAY-API-COMPATIBILITY-LEVEL is required.")
            if "x-ebay-api-siteid" not in headers:
                raise Failure(10007, "Missing site id.", "Header X-EBAY-API-SITEID is required.")
            app = headers.get("x-ebay-api-app-name")
            if app is not None and app not in self.market.applications:
                raise Failure(10017, "Invalid application name.", f"Application {app!r} is not registered.",
                              classification="RequestError")
            try:
                root, doc = parse_request(body)
            except BadRequest as e:
                raise Failure(5, "XML Parse error.", str(e)) from None
            if root != call + "Request":
                raise Failure(10012, "Invalid request.",
                              f"The root element {root} does not match the call {call} (expected {call}Request).")
            user = self.market.user_for_token(get(doc, "RequesterCredentials.eBayAuthToken"))
            if user is None:
                raise Failure(931, "Auth token is invalid.",
                              "Validation of the authentication token in API request failed.")
            handler = self.calls.get(call)
            if handler is None:
                raise Failure(2, "Unsupported API call.",
                              f"The API call {call} is not supported by the qlgate emulator.")
            fields = handler(user, doc)
            envelope = {"Timestamp": stamp(), "Ack": "Success", "Version": version, "Build": BUILD, **fields}
        except Failure as failure:
            envelope = {"Timestamp": stamp(), "Ack": "Failure", "Errors": failure.errors(), "Version": version,
                        "Build": BUILD}
        return call or "unknown", to_xml(f"{call or 'Unknown'}Response", TRADING_NS, envelope)

    def _item(self, item_id: Any) -> Item:
        item = self.market.items.get(str(item_id or ""))
        if item is None:
            raise Failure(17, "Item cannot be accessed.",
                          f"This item cannot be accessed because the listing has been deleted or you are not "
                          f"the seller: {item_id}.", str(item_id or ""))
        return item

    def _active(self, item_id: Any) -> Item:
        item = self._item(item_id)
        if not item.active:
            raise Failure(12302, "Auction ended.", f"Item {item.item_id} has ended.", item.item_id)
        return item

    # ---------------------------------------------------------------- listings
    def add_item(self, user: User, doc: dict, store: bool = True) -> dict:
        for field in ("Title", "PrimaryCategory.CategoryID", "StartPrice", "Currency", "Country", "ListingDuration"):
            if not get(doc, "Item." + field):
                raise _missing("Item." + field)
        duration = get(doc, "Item.ListingDuration")
        if duration not in DURATIONS:
            raise _missing("Item.ListingDuration")
        start = now()
        fees = {"Fee": [{"Name": n, "Fee": Amount(0.1 if n in ("InsertionFee", "ListingFee") else 0.0,
                                                 get(doc, "Item.Currency"))}
                        for n in ("AuctionLengthFee", "BoldFee", "FeaturedFee", "GalleryFee", "InsertionFee",
                                  "ListingFee")]}
        item = Item(self.market.new_item_id() if store else "0", get(doc, "Item.Title"), str(get(doc, "Item.PrimaryCategory.CategoryID")),
                    "", _money(get(doc, "Item.StartPrice"), "Item.StartPrice"), get(doc, "Item.Currency"),
                    get(doc, "Item.ListingType", "Chinese"), user.user_id, stamp(start),
                    stamp(start + timedelta(days=DURATIONS[duration])),
                    quantity=int(get(doc, "Item.Quantity", 1) or 1), location=get(doc, "Item.Location"),
                    country=get(doc, "Item.Country"), postal_code=get(doc, "Item.PostalCode"),
                    condition_id=int(get(doc, "Item.ConditionID", 1000) or 1000),
                    description=get(doc, "Item.Description", "") or "")
        if store:
            self.market.add(item)
        return {"ItemID": item.item_id, "StartTime": item.start, "EndTime": item.end, "Fees": fees}

    def revise_item(self, user: User, doc: dict) -> dict:
        item = self._active(get(doc, "Item.ItemID"))
        if item.seller != user.user_id:
            raise Failure(17, "Item cannot be accessed.", "You are not the seller of this item.", item.item_id)
        if get(doc, "Item.Title"):
            item.title = get(doc, "Item.Title")
        if get(doc, "Item.StartPrice") and not item.bid_count:
            item.price = _money(get(doc, "Item.StartPrice"), "Item.StartPrice")
        if get(doc, "Item.Quantity"):
            item.quantity = int(get(doc, "Item.Quantity"))
        if get(doc, "Item.Description"):
            item.description = get(doc, "Item.Description")
        return {"ItemID": item.item_id, "StartTime": item.start, "EndTime": item.end}

    def end_item(self, user: User, doc: dict) -> dict:
        item = self._active(get(doc, "ItemID"))
        if item.seller != user.user_id:
            raise Failure(17, "Item cannot be accessed.", "You are not the seller of this item.", item.item_id)
        if not get(doc, "EndingReason"):
            raise _missing("EndingReason")
        item.status = "Completed"
        item.end = stamp()
        return {"EndTime": item.end}

    def item_fields(self, item: Item) -> dict:
        return {
            "ItemID": item.item_id, "Country": item.country, "Currency": item.currency,
            "Description": item.description or None,
            "ListingDetails": {"StartTime": item.start, "EndTime": item.end, "ViewItemURL": item.view_url},
            "ListingType": item.listing_type, "Location": item.location,
            "PrimaryCategory": {"CategoryID": item.category_id, "CategoryName": item.category_name or None},
            "Quantity": item.quantity,
            "Seller": {"UserID": item.seller, "FeedbackScore": self.market.users[item.seller].feedback},
            "SellingStatus": {
                "BidCount": item.bid_count, "ConvertedCurrentPrice": Amount(item.price, item.currency),
                "CurrentPrice": Amount(item.price, item.currency),
                "HighBidder": {"UserID": item.high_bidder} if item.high_bidder else None,
                "MinimumToBid": Amount(item.minimum_to_bid or item.price, item.currency),
                "QuantitySold": item.quantity_sold, "ListingStatus": item.status},
            "StartPrice": Amount(item.price, item.currency), "Title": item.title,
            "ConditionID": item.condition_id,
        }

    def get_item(self, user: User, doc: dict) -> dict:
        return {"Item": self.item_fields(self._item(get(doc, "ItemID")))}

    def get_seller_list(self, user: User, doc: dict) -> dict:
        seller = get(doc, "UserID") or user.user_id
        items = [i for i in self.market.items.values() if i.seller == seller]
        per_page = int(get(doc, "Pagination.EntriesPerPage", 200) or 200)
        page = int(get(doc, "Pagination.PageNumber", 1) or 1)
        chosen = items[(page - 1) * per_page: page * per_page]
        return {"PaginationResult": {"TotalNumberOfPages": max(1, -(-len(items) // per_page)),
                                     "TotalNumberOfEntries": len(items)},
                "HasMoreItems": page * per_page < len(items),
                "ItemArray": {"Item": [self.item_fields(i) for i in chosen]} if chosen else None,
                "ItemsPerPage": per_page, "PageNumber": page, "ReturnedItemCountActual": len(chosen),
                "Seller": {"UserID": seller}}

    # ---------------------------------------------------------------- buying
    def place_offer(self, user: User, doc: dict) -> dict:
        for field in ("ItemID", "Offer.Action", "Offer.MaxBid", "Offer.Quantity"):
            if not get(doc, field):
                raise _missing(field)
        item = self._active(get(doc, "ItemID"))
        if item.seller == user.user_id:
            raise Failure(12011, "Seller cannot bid.", "You cannot bid on or buy your own item.", item.item_id)
        amount = _money(get(doc, "Offer.MaxBid"), "Offer.MaxBid")
        quantity = int(get(doc, "Offer.Quantity") or 1)
        action = get(doc, "Offer.Action")
        if action == "Bid":
            if item.listing_type not in ("Chinese", "Auction"):
                raise Failure(12004, "Invalid bid.", "Bids are only accepted on auctions.", item.item_id)
            if quantity != 1:
                raise Failure(12017, "Invalid quantity.", "An auction bid is for quantity 1.", "Offer.Quantity")
            minimum = item.minimum_to_bid if item.bid_count else item.price
            if amount < minimum:
                raise Failure(12016, "Bid too low.", f"Your bid must be at least {minimum:.2f} {item.currency}.",
                              "Offer.MaxBid")
            self.market.bid(item, user.user_id, amount)
        elif action == "Purchase":
            if quantity > item.quantity - item.quantity_sold:
                raise Failure(12017, "Invalid quantity.", "Not enough items left.", "Offer.Quantity")
            item.quantity_sold += quantity
            if item.quantity_sold >= item.quantity:
                item.status = "Completed"
            item.high_bidder = user.user_id
        else:
            raise _missing("Offer.Action")
        return {"SellingStatus": {
            "ConvertedCurrentPrice": Amount(item.price, item.currency), "CurrentPrice": Amount(item.price, item.currency),
            "HighBidder": {"UserID": item.high_bidder},
            "MinimumToBid": Amount(item.minimum_to_bid if item.minimum_to_bid is not None
                                   else round(item.price + increment(item.price), 2), item.currency)}}

    def _watch_counts(self, user: User) -> dict:
        return {"WatchListCount": len(user.watch), "WatchListMaximum": 100}

    def add_to_watch_list(self, user: User, doc: dict) -> dict:
        ids = [str(i) for i in as_list(get(doc, "ItemID"))]
        if not ids:
            raise _missing("ItemID")
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
            raise _missing("ItemID")
        unknown = [i for i in ids if i not in user.watch]
        if unknown:
            raise Failure(21002, "Item not in watch list.", f"Item {unknown[0]} is not in your watch list.", unknown[0])
        user.watch[:] = [i for i in user.watch if i not in ids]
        return self._watch_counts(user)

    def get_my_ebay_buying(self, user: User, doc: dict) -> dict:
        out: dict[str, Any] = {}
        watched = [self.market.items[i] for i in user.watch if i in self.market.items]
        if str(get(doc, "WatchList.Include", "true")).lower() != "false":
            out["WatchList"] = {"ItemArray": {"Item": [self.item_fields(i) for i in watched]} if watched else None,
                                "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(watched)}}
        bids = [i for i in self.market.items.values() if user.user_id in i.max_bids]
        if bids and str(get(doc, "BidList.Include", "true")).lower() != "false":
            out["BidList"] = {"ItemArray": {"Item": [self.item_fields(i) for i in bids]},
                              "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(bids)}}
        return out

    def get_user(self, user: User, doc: dict) -> dict:
        target = self.market.user(get(doc, "UserID") or user.user_id)
        if target is None:
            raise Failure(21, "Invalid UserID.", "The user does not exist.", "UserID")
        return {"User": {"FeedbackScore": target.feedback, "Status": "Confirmed", "UserID": target.user_id,
                         "Site": "US"}}

    # ---------------------------------------------------------------- Selling Manager
    def add_product(self, user: User, doc: dict) -> dict:
        details = get(doc, "SellingManagerProductDetails")
        if not isinstance(details, dict) or not details.get("ProductName"):
            raise _missing("SellingManagerProductDetails.ProductName")
        folder = details.get("FolderID") or get(doc, "FolderID")
        if folder and str(folder) not in user.folders:
            raise Failure(21919303, "Folder not found.", f"Folder {folder} does not exist in your inventory.", str(folder))
        fields = {k: details[k] for k in ("ProductName", "CustomLabel", "QuantityAvailable", "UnitCost")
                  if k in details}
        if folder:
            fields["FolderID"] = str(folder)
        product = self.market.new_product(user.user_id, fields)
        ordered = {"ProductName": product.details["ProductName"], "ProductID": product.product_id,
                   **{k: v for k, v in product.details.items() if k not in ("ProductName", "ProductID")}}
        return {"SellingManagerProductDetails": ordered}

    def delete_product(self, user: User, doc: dict) -> dict:
        product_id = str(get(doc, "ProductID") or "")
        if not product_id:
            raise _missing("ProductID")
        product = self.market.products.get(product_id)
        if product is None or product.owner != user.user_id:
            raise Failure(21919301, "Product not found.", f"Selling Manager product {product_id} does not exist.",
                          product_id)
        del self.market.products[product_id]
        ordered = {"ProductName": product.details["ProductName"], "ProductID": product.product_id,
                   **{k: v for k, v in product.details.items() if k not in ("ProductName", "ProductID")}}
        return {"DeletedSellingManagerProductDetails": ordered}

    def get_inventory(self, user: User, doc: dict) -> dict:
        products = [p for p in self.market.products.values() if p.owner == user.user_id]
        return {"SellingManagerProduct": [{"SellingManagerProductDetails": p.details} for p in products] or None,
                "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(products)}}
