"""The Trading API's order calls (``trading.py`` dispatches them): orders and
their transactions as buyer and seller, My eBay's selling lists, combining
purchases into one order, checkout, invoices and shipping (CompleteSale).

Orders are the shared marketplace's (``state.Order``, ``market.buy``), so the
REST Fulfillment API reads the same ones: CompleteSale with ``Shipped`` or a
tracking number adds a ``Shipment`` and, once every line is shipped, marks the
order FULFILLED.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, ClassVar

from .state import LineItem, Order, Shipment, User, now, stamp
from .trading_common import Failure, TradingCalls, flag, missing, money, need, need_one, number, page, scalar, texts
from .trading_listing import parse_time
from .wire import Amount, as_list, get


class OrderCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "GetOrders": "get_orders",
        "GetOrderTransactions": "get_order_transactions",
        "GetItemTransactions": "get_item_transactions",
        "GetSellerTransactions": "get_seller_transactions",
        "GetMyeBaySelling": "get_my_ebay_selling",
        "CompleteSale": "complete_sale",
        "AddOrder": "add_order",
        "ReviseCheckoutStatus": "revise_checkout_status",
        "SendInvoice": "send_invoice",
    }

    # ---------------------------------------------------------------- reading orders
    def _in_time(self, order: Order, doc: dict, prefix: str) -> bool:
        low = parse_time(scalar(doc, f"{prefix}From"), f"{prefix}From")
        high = parse_time(scalar(doc, f"{prefix}To"), f"{prefix}To")
        created = parse_time(order.created, "CreatedTime")
        return not ((low and created and created < low) or (high and created and created > high))

    def get_orders(self, user: User, doc: dict) -> dict:
        need_one(doc, "OrderIDArray", "CreateTimeFrom", "ModTimeFrom", "NumberOfDays")
        role = scalar(doc, "OrderRole") or "Seller"
        if role not in ("Seller", "Buyer"):
            raise missing("OrderRole")
        orders = (
            self.market.orders_of(seller=user.user_id)
            if role == "Seller"
            else self.market.orders_of(buyer=user.user_id)
        )
        ids = set(texts(get(doc, "OrderIDArray.OrderID")))
        days = scalar(doc, "NumberOfDays")
        if days and not 1 <= number(days, "NumberOfDays") <= 30:  # eBay: 1 to 30
            raise missing("NumberOfDays")
        since = now() - timedelta(days=number(days, "NumberOfDays")) if days else None
        status = scalar(doc, "OrderStatus") or "All"
        chosen = [
            o
            for o in orders
            if (not ids or o.order_id in ids)
            and self._in_time(o, doc, "CreateTime")
            and self._in_time(o, doc, "ModTime")
            and (since is None or (parse_time(o.created, "CreatedTime") or now()) >= since)
            and (status == "All" or self.order_status(o) == status)
        ]
        if scalar(doc, "SortingOrder") == "Descending":
            chosen.reverse()
        rows, result = page(doc, chosen, 100)
        return {
            "PaginationResult": result,
            "HasMoreOrders": len(rows) < len(chosen) and result["TotalNumberOfPages"] > 1,
            "OrderArray": {"Order": [self.order_fields(o) for o in rows]} if rows else None,
            "OrdersPerPage": number(scalar(doc, "Pagination.EntriesPerPage"), "Pagination.EntriesPerPage", 100),
            "PageNumber": number(scalar(doc, "Pagination.PageNumber"), "Pagination.PageNumber", 1),
            "ReturnedOrderCountActual": len(rows),
        }

    def _lines(self, user: User, seller_only: bool = False) -> list[tuple[Order, LineItem]]:
        return [
            (o, li)
            for o in self.market.orders.values()
            if o.seller == user.user_id or (not seller_only and o.buyer == user.user_id)
            for li in o.line_items
        ]

    def get_order_transactions(self, user: User, doc: dict) -> dict:
        need_one(doc, "ItemTransactionIDArray", "OrderIDArray", "SKUArray")
        ids = set(texts(get(doc, "OrderIDArray.OrderID")))
        pairs = as_list(get(doc, "ItemTransactionIDArray.ItemTransactionID"))
        wanted = {(str(p.get("ItemID")), str(p.get("TransactionID", ""))) for p in pairs if isinstance(p, dict)}
        skus = set(texts(get(doc, "SKUArray.SKU")))
        orders = []
        for order in self.market.orders.values():
            if user.user_id not in (order.buyer, order.seller):
                continue
            hit = order.order_id in ids or any(
                (li.item_id, li.line_item_id) in wanted or (li.item_id, "") in wanted for li in order.line_items
            )
            hit = hit or any(
                self.market.trading.extras.get(li.item_id, {}).get("SKU") in skus for li in order.line_items
            )
            if hit:
                orders.append(order)
        return {"OrderArray": {"Order": [self.order_fields(o) for o in orders]} if orders else None}

    def get_item_transactions(self, user: User, doc: dict) -> dict:
        need_one(doc, "ItemID", "SKU", "OrderLineItemID")
        item_id = scalar(doc, "ItemID")
        if scalar(doc, "OrderLineItemID"):
            item_id = str(scalar(doc, "OrderLineItemID")).split("-", 1)[0]
        if not item_id:
            sku = scalar(doc, "SKU")
            item_id = next((i for i, e in self.market.trading.extras.items() if e.get("SKU") == sku), None)
            if item_id is None:
                raise Failure(21916270, "SKU not found.", f"No listing has SKU {sku}.", str(sku))
        item = self._item(item_id)
        lines = [(o, li) for o, li in self._lines(user) if li.item_id == item.item_id]
        if item.seller != user.user_id and not lines:
            raise Failure(17, "Item cannot be accessed.", "You are neither the seller nor a buyer of this item.")
        rows, result = page(doc, lines, 100)
        return {
            "PaginationResult": result,
            "HasMoreTransactions": False,
            "TransactionsPerPage": len(rows),
            "PageNumber": 1,
            "ReturnedTransactionCountActual": len(rows),
            "Item": self.item_fields(item),
            "TransactionArray": {"Transaction": [self.transaction_fields(o, li, False) for o, li in rows]}
            if rows
            else None,
        }

    def get_seller_transactions(self, user: User, doc: dict) -> dict:
        lines = [(o, li) for o, li in self._lines(user, seller_only=True) if self._in_time(o, doc, "ModTime")]
        days = scalar(doc, "NumberOfDays")
        if days:
            if not 1 <= number(days, "NumberOfDays") <= 30:
                raise missing("NumberOfDays")
            since = now() - timedelta(days=int(days))
            lines = [(o, li) for o, li in lines if (parse_time(o.created, "CreatedTime") or now()) >= since]
        rows, result = page(doc, lines, 100)
        return {
            "PaginationResult": result,
            "HasMoreTransactions": False,
            "TransactionsPerPage": len(rows),
            "PageNumber": number(scalar(doc, "Pagination.PageNumber"), "Pagination.PageNumber", 1),
            "ReturnedTransactionCountActual": len(rows),
            "Seller": {"UserID": user.user_id},
            "TransactionArray": {"Transaction": [self.transaction_fields(o, li) for o, li in rows]} if rows else None,
        }

    def get_my_ebay_selling(self, user: User, doc: dict) -> dict:
        def wanted(section: str) -> bool:
            return str(scalar(doc, f"{section}.Include", "true")).lower() != "false"

        mine = [i for i in self.market.items.values() if i.seller == user.user_id]
        active = [i for i in mine if i.active]
        sold = [(o, li) for o, li in self._lines(user, seller_only=True)]
        sold_items = {li.item_id for _, li in sold}
        unsold = [i for i in mine if not i.active and i.item_id not in sold_items]
        out: dict[str, Any] = {}
        if wanted("ActiveList"):
            rows, result = page({"Pagination": get(doc, "ActiveList.Pagination") or {}}, active, 25)
            out["ActiveList"] = {
                "ItemArray": {"Item": [self.item_fields(i) for i in rows]} if rows else None,
                "PaginationResult": result,
            }
        if wanted("SoldList"):
            out["SoldList"] = {
                "OrderTransactionArray": {
                    "OrderTransaction": [{"Transaction": self.transaction_fields(o, li)} for o, li in sold]
                }
                if sold
                else None,
                "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(sold)},
            }
        if wanted("UnsoldList"):
            out["UnsoldList"] = {
                "ItemArray": {"Item": [self.item_fields(i) for i in unsold]} if unsold else None,
                "PaginationResult": {"TotalNumberOfPages": 1, "TotalNumberOfEntries": len(unsold)},
            }
        out["Summary"] = {
            "ActiveAuctionCount": sum(i.listing_type in ("Chinese", "Auction") for i in active),
            "AuctionSellingCount": len(active),
            "AuctionBidCount": sum(i.bid_count for i in active),
            "TotalAuctionSellingValue": Amount(round(sum(i.price for i in active), 2)),
            "TotalSoldCount": sum(li.quantity for _, li in sold),
            "TotalSoldValue": Amount(round(sum(li.price * li.quantity for _, li in sold), 2)),
            "SoldDurationInDays": 31,
        }
        return out

    # ---------------------------------------------------------------- checkout and shipping
    def complete_sale(self, user: User, doc: dict) -> dict:
        need_one(doc, "OrderID", "OrderLineItemID", "ItemID")
        order, line = self._sale(user, doc)
        if order.seller != user.user_id:
            raise Failure(21916624, "Not the seller.", "Only the seller completes a sale.", order.order_id)
        if scalar(doc, "Paid") not in (None, ""):
            order.paid = flag(scalar(doc, "Paid"))
        tracking = as_list(get(doc, "Shipment.ShipmentTrackingDetails"))
        shipped = scalar(doc, "Shipped")
        if tracking or flag(shipped):
            if not order.paid:
                raise Failure(21916625, "Order not paid.", "An unpaid order cannot be marked shipped.", order.order_id)
            lines = [li.line_item_id for li in order.line_items] if scalar(doc, "OrderID") else [line.line_item_id]
            for t in tracking or [{}]:
                t = t if isinstance(t, dict) else {}
                if tracking and not (t.get("ShipmentTrackingNumber") and t.get("ShippingCarrierUsed")):
                    raise missing("Shipment.ShipmentTrackingDetails.ShipmentTrackingNumber")
                order.shipments.append(
                    Shipment(
                        self.market.trading.new_id(9000000000),
                        lines,
                        str(t.get("ShippingCarrierUsed", "")),
                        str(t.get("ShipmentTrackingNumber", "")),
                        stamp(),
                    )
                )
        elif shipped is not None and not flag(shipped):
            order.shipments.clear()
        done = {li for s in order.shipments for li in s.line_item_ids}
        order.status = (
            "FULFILLED"
            if all(li.line_item_id in done for li in order.line_items)
            else "IN_PROGRESS"
            if done
            else "NOT_STARTED"
        )
        info = get(doc, "FeedbackInfo")
        if isinstance(info, dict):
            self.record_feedback(
                user.user_id,
                str(info.get("TargetUser") or order.buyer),
                info.get("CommentType"),
                info.get("CommentText"),
                order,
                line,
            )
        return {}

    def revise_checkout_status(self, user: User, doc: dict) -> dict:
        need(doc, "CheckoutStatus")
        need_one(doc, "OrderID", "OrderLineItemID", "ItemID")
        order, _ = self._sale(user, doc)
        status = scalar(doc, "CheckoutStatus")
        if status not in ("Complete", "Incomplete", "Pending"):
            raise missing("CheckoutStatus")
        order.paid = status == "Complete"
        return {}

    def send_invoice(self, user: User, doc: dict) -> dict:
        need_one(doc, "OrderID", "OrderLineItemID", "ItemID")
        order, _ = self._sale(user, doc)
        if order.seller != user.user_id:
            raise Failure(21916624, "Not the seller.", "Only the seller sends an invoice.", order.order_id)
        if order.paid:
            raise Failure(21916626, "Order already paid.", f"Order {order.order_id} is paid: no invoice needed.")
        self.market.trading.extras.setdefault(order.line_items[0].item_id, {})["InvoiceSent"] = stamp()
        return {}

    def add_order(self, user: User, doc: dict) -> dict:
        need(doc, "Order", "Order.TransactionArray", "Order.Total", "Order.CreatingUserRole", "Order.PaymentMethods")
        wanted = as_list(get(doc, "Order.TransactionArray.Transaction"))
        if len(wanted) < 2:
            raise Failure(21916627, "Too few transactions.", "An order combines at least two transactions.")
        picked: list[tuple[Order, LineItem]] = []
        for t in wanted:
            t = t if isinstance(t, dict) else {}
            order, line = self._sale(
                user, {"ItemID": scalar(t, "Item.ItemID"), "TransactionID": t.get("TransactionID")}
            )
            picked.append((order, line))
        buyers = {o.buyer for o, _ in picked}
        sellers = {o.seller for o, _ in picked}
        if len(buyers) != 1 or len(sellers) != 1 or any(o.paid and o.shipments for o, _ in picked):
            raise Failure(21916628, "Cannot combine.", "Only unshipped sales between one buyer and one seller combine.")
        total = money(scalar(doc, "Order.Total"), "Order.Total")
        combined = Order(
            f"{picked[0][0].order_id}-C",
            buyers.pop(),
            sellers.pop(),
            [li for _, li in picked],
            stamp(),
            paid=False,
        )
        for order, line in picked:
            order.line_items = [li for li in order.line_items if li is not line]
            if not order.line_items:
                self.market.orders.pop(order.order_id, None)
        self.market.orders[combined.order_id] = combined
        if abs(total - combined.total) > 0.005:
            self.market.trading.extras.setdefault(combined.order_id, {})["AdjustedTotal"] = total
        return {"OrderID": combined.order_id, "CreatedTime": combined.created}
