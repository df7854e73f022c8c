"""The Trading API's Selling Manager calls for a seller's inventory and sales
(``trading.py`` dispatches them): products and the folders they are filed in,
the inventory, sold listings and sale records, alerts, the email log and the
automatic-feedback options. Templates and automation rules are in
``trading_templates.py``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .state import Order, Product, User
from .trading_common import Failure, TradingCalls, flag, missing, need, need_one, number, page, scalar, texts
from .trading_state import Folder
from .wire import Amount, get

NUMERIC_FIELDS = ("QuantityAvailable", "RestockThreshold")
PRODUCT_FIELDS = (
    "ProductName",
    "CustomLabel",
    "QuantityAvailable",
    "UnitCost",
    "RestockAlert",
    "RestockThreshold",
    "Note",
)


class SellingManagerCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "AddSellingManagerProduct": "add_product",
        "ReviseSellingManagerProduct": "revise_product",
        "DeleteSellingManagerProduct": "delete_product",
        "GetSellingManagerInventory": "get_inventory",
        "AddSellingManagerInventoryFolder": "add_folder",
        "ReviseSellingManagerInventoryFolder": "revise_folder",
        "DeleteSellingManagerInventoryFolder": "delete_folder",
        "GetSellingManagerInventoryFolder": "get_folder",
        "MoveSellingManagerInventoryFolder": "move_folder",
        "GetSellingManagerSoldListings": "get_sold_listings",
        "GetSellingManagerSaleRecord": "get_sale_record",
        "ReviseSellingManagerSaleRecord": "revise_sale_record",
        "SetSellingManagerFeedbackOptions": "set_feedback_options",
        "GetSellingManagerAlerts": "get_alerts",
        "GetSellingManagerEmailLog": "get_email_log",
    }

    # ---------------------------------------------------------------- products
    def _folder(self, user: User, folder_id: Any) -> Folder:
        folder = self.market.trading.folders.get((user.user_id, str(folder_id)))
        if folder is None or str(folder_id) not in user.folders:
            raise Failure(
                21919303, "Folder not found.", f"Folder {folder_id} does not exist in your inventory.", str(folder_id)
            )
        return folder

    def _product(self, user: User, product_id: Any) -> Product:
        product = self.market.products.get(str(product_id or ""))
        if product is None or product.owner != user.user_id:
            raise Failure(
                21919301, "Product not found.", f"Selling Manager product {product_id} does not exist.", str(product_id)
            )
        return product

    @staticmethod
    def _details(product: Product) -> dict:
        return {
            "ProductName": product.details["ProductName"],
            "ProductID": product.product_id,
            **{k: v for k, v in product.details.items() if k not in ("ProductName", "ProductID")},
        }

    @staticmethod
    def _given(details: dict) -> dict:
        """A product's fields of a request, all text (and the quantities whole numbers)."""
        fields = {k: scalar(details, k) for k in PRODUCT_FIELDS if scalar(details, k) not in (None, "")}
        for k in NUMERIC_FIELDS:
            if k in fields:
                number(fields[k], "SellingManagerProductDetails." + k)
        return fields

    def add_product(self, user: User, doc: dict) -> dict:
        details = get(doc, "SellingManagerProductDetails")
        if not isinstance(details, dict) or not scalar(details, "ProductName"):
            raise missing("SellingManagerProductDetails.ProductName")
        folder = scalar(details, "FolderID") or scalar(doc, "FolderID")
        if folder:
            self._folder(user, folder)
        fields = self._given(details)
        if folder:
            fields["FolderID"] = str(folder)
        return {"SellingManagerProductDetails": self._details(self.market.new_product(user.user_id, fields))}

    def revise_product(self, user: User, doc: dict) -> dict:
        need(doc, "SellingManagerProductDetails", "SellingManagerProductDetails.ProductID")
        details = get(doc, "SellingManagerProductDetails")
        product = self._product(user, scalar(details, "ProductID"))
        folder, fields = scalar(details, "FolderID"), self._given(details)  # all checked before any is changed
        if folder:
            self._folder(user, folder)
            product.details["FolderID"] = str(folder)
        product.details.update(fields)
        return {"SellingManagerProductDetails": self._details(product)}

    def delete_product(self, user: User, doc: dict) -> dict:
        need(doc, "ProductID")
        product = self._product(user, scalar(doc, "ProductID"))
        del self.market.products[product.product_id]
        return {"DeletedSellingManagerProductDetails": self._details(product)}

    def get_inventory(self, user: User, doc: dict) -> dict:
        products = [p for p in self.market.products.values() if p.owner == user.user_id]
        if scalar(doc, "FolderID"):
            self._folder(user, scalar(doc, "FolderID"))
            products = [p for p in products if p.details.get("FolderID") == str(scalar(doc, "FolderID"))]
        query = scalar(doc, "Search.SearchValue")
        if query:
            products = [p for p in products if str(query).lower() in str(p.details.get("ProductName", "")).lower()]
        rows, result = page(doc, products, 50)
        return {
            "SellingManagerProduct": [{"SellingManagerProductDetails": self._details(p)} for p in rows] or None,
            "PaginationResult": result,
        }

    # ---------------------------------------------------------------- folders
    def _tree(self, user: User, folder: Folder, depth: int) -> dict:
        children = [
            f
            for (owner, _), f in self.market.trading.folders.items()
            if owner == user.user_id and f.parent_id == folder.folder_id
        ]
        return {
            "FolderID": folder.folder_id,
            "ParentFolderID": folder.parent_id,
            "FolderName": folder.name,
            "FolderComment": folder.comment or None,
            "ChildFolder": [self._tree(user, c, depth - 1) for c in children] if children and depth else None,
        }

    def add_folder(self, user: User, doc: dict) -> dict:
        need(doc, "FolderName")
        parent = scalar(doc, "ParentFolderID")
        if parent:
            self._folder(user, parent)
        name = str(scalar(doc, "FolderName"))
        if any(
            f.name == name and f.parent_id == (str(parent) if parent else None) and f.owner == user.user_id
            for f in self.market.trading.folders.values()
        ):
            raise Failure(21919305, "Folder exists.", f"A folder named {name} is already there.", "FolderName")
        folder = Folder(
            self.market.trading.new_id(6003000000),
            user.user_id,
            name,
            str(parent) if parent else None,
            scalar(doc, "Comment") or "",
        )
        self.market.trading.folders[(user.user_id, folder.folder_id)] = folder
        user.folders[folder.folder_id] = name
        return {"FolderID": folder.folder_id}

    def revise_folder(self, user: User, doc: dict) -> dict:
        need(doc, "Folder", "Folder.FolderID")
        folder = self._folder(user, scalar(doc, "Folder.FolderID"))
        if scalar(doc, "Folder.FolderName"):
            folder.name = user.folders[folder.folder_id] = str(scalar(doc, "Folder.FolderName"))
        if scalar(doc, "Folder.FolderComment") is not None:
            folder.comment = str(scalar(doc, "Folder.FolderComment"))
        return {"Folder": self._tree(user, folder, 0)}

    def delete_folder(self, user: User, doc: dict) -> dict:
        need(doc, "FolderID")
        folder = self._folder(user, scalar(doc, "FolderID"))
        busy = any(
            p.owner == user.user_id and p.details.get("FolderID") == folder.folder_id
            for p in self.market.products.values()
        )
        busy = busy or any(
            f.parent_id == folder.folder_id and f.owner == user.user_id for f in self.market.trading.folders.values()
        )
        if busy:
            raise Failure(
                21919306, "Folder not empty.", f"Folder {folder.folder_id} holds products or folders.", "FolderID"
            )
        del self.market.trading.folders[(user.user_id, folder.folder_id)]
        user.folders.pop(folder.folder_id, None)
        return {}

    def get_folder(self, user: User, doc: dict) -> dict:
        depth = number(scalar(doc, "MaxDepth"), "MaxDepth", 1)
        if scalar(doc, "FolderID"):
            return {"Folder": self._tree(user, self._folder(user, scalar(doc, "FolderID")), depth)}
        tops = [
            f for (owner, _), f in self.market.trading.folders.items() if owner == user.user_id and f.parent_id is None
        ]
        return {
            "Folder": {
                "FolderID": 0,
                "FolderName": "Inventory",
                "ChildFolder": [self._tree(user, f, depth) for f in tops] or None,
            }
        }

    def move_folder(self, user: User, doc: dict) -> dict:
        need(doc, "FolderID")
        folder = self._folder(user, scalar(doc, "FolderID"))
        target = scalar(doc, "NewParentFolderID")
        if target:
            parent: Folder | None = self._folder(user, target)
            while parent is not None:  # not into itself or one of its own subfolders
                if parent.folder_id == folder.folder_id:
                    raise Failure(21919307, "Invalid move.", "A folder cannot move into itself.", "NewParentFolderID")
                parent = self.market.trading.folders.get((user.user_id, parent.parent_id or ""))
        folder.parent_id = str(target) if target else None
        return {}

    # ---------------------------------------------------------------- sales
    def _record(self, order: Order) -> dict:
        buyer = self.market.users.get(order.buyer)
        return {
            "SellingManagerSoldTransaction": [
                {
                    "TransactionID": li.line_item_id,
                    "SaleRecordID": li.line_item_id,
                    "ItemID": li.item_id,
                    "QuantitySold": li.quantity,
                    "ItemPrice": Amount(li.price, li.currency),
                    "ItemTitle": li.title,
                    "OrderLineItemID": f"{li.item_id}-{li.line_item_id}",
                }
                for li in order.line_items
            ],
            "SaleRecordID": order.order_id,
            "BuyerID": order.buyer,
            "BuyerEmail": f"{order.buyer}@example.com" if buyer else None,
            "TotalAmount": Amount(order.total),
            "OrderStatus": {
                "CheckoutStatus": "CheckoutComplete" if order.paid else "CheckoutIncomplete",
                "PaidStatus": "Paid" if order.paid else "Unpaid",
                "ShippedStatus": "Shipped" if order.shipments else "Unshipped",
                "ShippedTime": order.shipments[-1].shipped if order.shipments else None,
            },
            "CreationTime": order.created,
            "OrderID": order.order_id,
            "Notes": self.market.trading.extras.get(order.order_id, {}).get("Notes"),
        }

    def get_sold_listings(self, user: User, doc: dict) -> dict:
        orders = self.market.orders_of(seller=user.user_id)
        search = scalar(doc, "Search.SearchType"), scalar(doc, "Search.SearchValue")
        if search[0] and search[1]:
            key = {
                "ItemID": lambda o: {li.item_id for li in o.line_items},
                "BuyerUserID": lambda o: {o.buyer},
                "SaleRecordID": lambda o: {o.order_id},
                "Title": lambda o: {li.title for li in o.line_items},
            }.get(search[0])
            if key is None:
                raise Failure(37, "Input data is invalid.", f"SearchType {search[0]} is not supported.", "SearchType")
            orders = [o for o in orders if any(str(search[1]).lower() in str(v).lower() for v in key(o))]
        wanted = set(texts(get(doc, "Filter")))
        tests = {
            "PaidNotShipped": lambda o: o.paid and not o.shipments,
            "Shipped": lambda o: bool(o.shipments),
            "Unpaid": lambda o: not o.paid,
            "Paid": lambda o: o.paid,
        }
        for f in wanted:
            if f in tests:
                orders = [o for o in orders if tests[f](o)]
        rows, result = page(doc, orders, 25)
        return {"SaleRecord": [self._record(o) for o in rows] or None, "PaginationResult": result}

    def get_sale_record(self, user: User, doc: dict) -> dict:
        need_one(doc, "OrderID", "OrderLineItemID", "ItemID")
        order, _ = self._sale(user, doc)
        if order.seller != user.user_id:
            raise Failure(21916624, "Not the seller.", "Only the seller reads the sale record.", order.order_id)
        return {"SellingManagerSoldOrder": self._record(order)}

    def revise_sale_record(self, user: User, doc: dict) -> dict:
        need_one(doc, "OrderID", "OrderLineItemID", "ItemID")
        order, _ = self._sale(user, doc)
        if order.seller != user.user_id:
            raise Failure(21916624, "Not the seller.", "Only the seller revises the sale record.", order.order_id)
        paid = scalar(doc, "SellingManagerSoldOrder.OrderStatus.PaidStatus")
        if paid:
            order.paid = paid == "Paid"
        if scalar(doc, "SellingManagerSoldOrder.Notes"):
            self.market.trading.extras.setdefault(order.order_id, {})["Notes"] = get(
                doc, "SellingManagerSoldOrder.Notes"
            )
        return {}

    def set_feedback_options(self, user: User, doc: dict) -> dict:
        need_one(doc, "AutomatedLeaveFeedbackEvent", "StoredComments")
        event = scalar(doc, "AutomatedLeaveFeedbackEvent")
        if event and event not in ("CancelAutomatedFeedback", "PaymentReceived", "PositiveFeedbackReceived"):
            raise Failure(37, "Input data is invalid.", f"AutomatedLeaveFeedbackEvent {event} is not valid.")
        comments = texts(get(doc, "StoredComments.StoredCommentText"))
        if len(comments) > 10 or any(len(c) > 80 for c in comments):
            raise Failure(
                37, "Input data is invalid.", "At most 10 stored comments of 80 characters.", "StoredComments"
            )
        options = self.market.trading.feedback_options.setdefault(user.user_id, {})
        if event:
            options["Event"] = event
        if comments:
            options["Comments"] = comments
        return {}

    def get_alerts(self, user: User, doc: dict) -> dict:
        alerts = []
        unpaid = [o for o in self.market.orders_of(seller=user.user_id) if not o.paid]
        unshipped = [o for o in self.market.orders_of(seller=user.user_id) if o.paid and not o.shipments]
        if unpaid:
            alerts.append({"AlertType": "Sold", "SoldAlert": "CheckoutIncomplete", "Count": len(unpaid)})
        if unshipped:
            alerts.append({"AlertType": "Sold", "SoldAlert": "PaidNotShipped", "Count": len(unshipped)})
        low = [
            p
            for p in self.market.products.values()
            if p.owner == user.user_id
            and flag(p.details.get("RestockAlert"))
            and int(p.details.get("QuantityAvailable") or 0) <= int(p.details.get("RestockThreshold") or 0)
        ]
        if low:
            alerts.append({"AlertType": "Inventory", "InventoryAlert": "OutOfStock", "Count": len(low)})
        return {"Alert": alerts or None}

    def get_email_log(self, user: User, doc: dict) -> dict:
        need_one(doc, "OrderID", "ItemID")
        order, line = self._sale(user, doc)
        sent = self.market.trading.extras.get(line.item_id, {}).get("InvoiceSent")
        return {
            "EmailLog": [{"EmailType": "PaymentReminder", "EmailState": "Sent", "EventTime": sent}] if sent else None,
            "OrderID": order.order_id,
        }
