"""The Trading API's calls a seller makes (``trading.py`` dispatches them): listing,
revising and ending items, reading them back, and the Selling Manager's
inventory of products.

Apart from the buyer's calls (``trading_buying.py``) and the request handling,
so that each group of handlers reads on its own.
"""

from __future__ import annotations

from datetime import timedelta

from .state import Item, User, now, stamp
from .trading_common import Failure, TradingCalls, missing, money
from .wire import Amount, get

DURATIONS = {"Days_1": 1, "Days_3": 3, "Days_5": 5, "Days_7": 7, "Days_10": 10, "Days_30": 30, "GTC": 30}


class SellingCalls(TradingCalls):
    # ---------------------------------------------------------------- listings
    def add_item(self, user: User, doc: dict, store: bool = True) -> dict:
        for field in ("Title", "PrimaryCategory.CategoryID", "StartPrice", "Currency", "Country", "ListingDuration"):
            if not get(doc, "Item." + field):
                raise missing("Item." + field)
        duration = get(doc, "Item.ListingDuration")
        if duration not in DURATIONS:
            raise missing("Item.ListingDuration")
        start = now()
        fees = {
            "Fee": [
                {
                    "Name": n,
                    "Fee": Amount(0.1 if n in ("InsertionFee", "ListingFee") else 0.0, get(doc, "Item.Currency")),
                }
                for n in ("AuctionLengthFee", "BoldFee", "FeaturedFee", "GalleryFee", "InsertionFee", "ListingFee")
            ]
        }
        item = Item(
            self.market.new_item_id() if store else "0",
            get(doc, "Item.Title"),
            str(get(doc, "Item.PrimaryCategory.CategoryID")),
            "",
            money(get(doc, "Item.StartPrice"), "Item.StartPrice"),
            get(doc, "Item.Currency"),
            get(doc, "Item.ListingType", "Chinese"),
            user.user_id,
            stamp(start),
            stamp(start + timedelta(days=DURATIONS[duration])),
            quantity=int(get(doc, "Item.Quantity", 1) or 1),
            location=get(doc, "Item.Location"),
            country=get(doc, "Item.Country"),
            postal_code=get(doc, "Item.PostalCode"),
            condition_id=int(get(doc, "Item.ConditionID", 1000) or 1000),
            description=get(doc, "Item.Description", "") or "",
        )
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
            item.price = money(get(doc, "Item.StartPrice"), "Item.StartPrice")
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
            raise missing("EndingReason")
        item.status = "Completed"
        item.end = stamp()
        return {"EndTime": item.end}

    def get_item(self, user: User, doc: dict) -> dict:
        return {"Item": self.item_fields(self._item(get(doc, "ItemID")))}

    def get_seller_list(self, user: User, doc: dict) -> dict:
        seller = get(doc, "UserID") or user.user_id
        items = [i for i in self.market.items.values() if i.seller == seller]
        per_page = int(get(doc, "Pagination.EntriesPerPage", 200) or 200)
        page = int(get(doc, "Pagination.PageNumber", 1) or 1)
        chosen = items[(page - 1) * per_page : page * per_page]
        return {
            "PaginationResult": {
                "TotalNumberOfPages": max(1, -(-len(items) // per_page)),
                "TotalNumberOfEntries": len(items),
            },
            "HasMoreItems": page * per_page < len(items),
            "ItemArray": {"Item": [self.item_fields(i) for i in chosen]} if chosen else None,
            "ItemsPerPage": per_page,
            "PageNumber": page,
            "ReturnedItemCountActual": len(chosen),
            "Seller": {"UserID": seller},
        }

    # ---------------------------------------------------------------- Selling Manager
    def add_product(self, user: User, doc: dict) -> dict:
        details = get(doc, "SellingManagerProductDetails")
        if not isinstance(details, dict) or not details.get("ProductName"):
            raise missing("SellingManagerProductDetails.ProductName")
        folder = details.get("FolderID") or get(doc, "FolderID")
        if folder and str(folder) not in user.folders:
            raise Failure(
                21919303, "Folder not found.", f"Folder {folder} does not exist in your inventory.", str(folder)
            )
        fields = {
            k: details[k] for k in ("ProductName", "CustomLabel", "QuantityAvailable", "UnitCost") if k in details
        }
        if folder:
            fields["FolderID"] = str(folder)
        product = self.market.new_product(user.user_id, fields)
        ordered = {
            "ProductName": product.details["ProductName"],
            "ProductID": product.product_id,
            **{k: v for k, v in product.details.items() if k not in ("ProductName", "ProductID")},
        }
        return {"SellingManagerProductDetails": ordered}

    def delete_product(self, user: User, doc: dict) -> dict:
        product_id = str(get(doc, "ProductID") or "")
        if not product_id:
            raise missing("ProductID")
        product = self.market.products.get(product_id)
        if product is None or product.owner != user.user_id:
            raise Failure(
                21919301, "Product not found.", f"Selling Manager product {product_id} does not exist.", product_id
            )
        del self.market.products[product_id]
        ordered = {
            "ProductName": product.details["ProductName"],
            "ProductID": product.product_id,
            **{k: v for k, v in product.details.items() if k not in ("ProductName", "ProductID")},
        }
        return {"DeletedSellingManagerProductDetails": ordered}

    def get_inventory(self, user: User, doc: dict) -> dict:
        products = [p for p in self.market.products.values() if p.owner == user.user_id]
        return {
            "SellingManagerProduct": [{"SellingManagerProductDetails": p.details} for p in products] or None,
            "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(products)},
        }
