"""What every Trading API call of the emulator (``trading.py``) shares: the
failure it answers with (``Ack`` Failure and an ``Errors`` block, eBay's codes
and messages), the checks of a request's fields, and how an item is looked up
and described.

Kept apart so that the calls, grouped by who makes them (``trading_selling.py``,
``trading_buying.py``), and the request handling in ``trading.py`` all build on
it without importing one another.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .state import Item, LineItem, Marketplace, Order, User, stamp
from .trading_state import Feedback
from .wire import Amount, as_list, get


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


def scalar(doc: Any, path: str, default: Any = None) -> Any:
    """A field that holds text (``<Currency>USD</Currency>``): its text, or ``default`` when it
    is absent. Elements where text is expected (``<Currency><X>1</X></Currency>``, or the
    field repeated) are error 37, as eBay answers, so that nothing but text is ever kept."""
    value = get(doc, path, default)
    if isinstance(value, (dict, list)):
        raise missing(path)
    return value


def need(doc: dict, *fields: str) -> None:
    """Every field is given (catalog.json's ``required``), else error 37 naming the first missing."""
    for f in fields:
        value = get(doc, f)
        if value is None or value == "" or value == {}:
            raise missing(f)


def need_one(doc: dict, *fields: str) -> None:
    """At least one of the fields is given (catalog.json's ``one_of``)."""
    if not any(get(doc, f) not in (None, "", {}) for f in fields):
        raise missing(fields[0])


def flag(value: Any) -> bool:
    return str(value).strip().lower() == "true"


def number(value: Any, field: str, default: int | None = None) -> int:
    if value in (None, "") and default is not None:
        return default
    try:
        return int(str(value).strip())
    except ValueError:
        raise missing(field) from None


def page(doc: dict, rows: list, per_page_default: int = 25) -> tuple[list, dict[str, Any]]:
    """One page of ``rows`` by ``Pagination`` (EntriesPerPage, PageNumber) and its ``PaginationResult``."""
    per_page = max(1, number(scalar(doc, "Pagination.EntriesPerPage"), "Pagination.EntriesPerPage", per_page_default))
    number_ = max(1, number(scalar(doc, "Pagination.PageNumber"), "Pagination.PageNumber", 1))
    chosen = rows[(number_ - 1) * per_page : number_ * per_page]
    result = {"TotalNumberOfPages": max(1, -(-len(rows) // per_page)), "TotalNumberOfEntries": len(rows)}
    return chosen, result


def texts(value: Any) -> list[str]:
    """A repeated element's values as text (``<ItemID>1</ItemID><ItemID>2</ItemID>``)."""
    return [str(v) for v in as_list(value) if str(v).strip()]


def money(text: Any, field: str) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        raise missing(field) from None


class TradingCalls:
    """The base of the Trading API's call handlers: each takes the calling user and
    the request document and answers the response's fields. Each group of calls
    names its own in ``CALLS`` (call name → method name); ``trading.py`` collects them."""

    market: Marketplace
    CALLS: ClassVar[dict[str, str]] = {}

    def new_listing(self, user: User, fields: dict, store: bool, fixed: bool = False) -> Item:
        """A listing from an ``Item`` element's fields (``trading_listing.py``)."""
        raise NotImplementedError

    def _own(self, user: User, item_id: Any) -> Item:
        item = self._item(item_id)
        if item.seller != user.user_id:
            raise Failure(17, "Item cannot be accessed.", "You are not the seller of this item.", item.item_id)
        return item

    def _order(self, user: User, order_id: Any) -> Order:
        order = self.market.orders.get(str(order_id or ""))
        if order is None or user.user_id not in (order.buyer, order.seller):
            raise Failure(
                21916623, "Invalid OrderID.", f"The order {order_id} does not exist or is not yours.", str(order_id)
            )
        return order

    def _sale(self, user: User, doc: dict) -> tuple[Order, LineItem]:
        """The order line a call names by OrderID, OrderLineItemID (ItemID-TransactionID)
        or ItemID (and TransactionID), among the caller's own sales and purchases."""
        order_id, line_id = scalar(doc, "OrderID"), scalar(doc, "OrderLineItemID")
        item_id, transaction_id = scalar(doc, "ItemID"), scalar(doc, "TransactionID")
        if line_id and "-" in str(line_id):
            item_id, transaction_id = str(line_id).split("-", 1)
        for order in self.market.orders.values():
            if user.user_id not in (order.buyer, order.seller):
                continue
            for line in order.line_items:
                if order_id and order.order_id == str(order_id):
                    return order, line
                if (
                    item_id
                    and line.item_id == str(item_id)
                    and (not transaction_id or str(transaction_id) in ("0", line.line_item_id))
                ):
                    return order, line
        raise Failure(
            21916623,
            "Invalid order or transaction.",
            f"No sale of yours matches {order_id or line_id or item_id}.",
            str(order_id or line_id or item_id or ""),
        )

    def record_feedback(
        self, commenter: str, target: str, kind: Any, text: Any, order: Order | None, line: LineItem | None
    ) -> Feedback:
        """Feedback ``commenter`` leaves for ``target`` about a sale between them (once per
        side and sale); the target's score moves by +1, 0 or -1."""
        if kind not in ("Positive", "Neutral", "Negative"):
            raise missing("CommentType")
        if not text or len(str(text)) > 80:
            raise missing("CommentText")
        if order is None or line is None or {commenter, target} != {order.buyer, order.seller}:
            raise Failure(55, "Feedback not allowed.", f"You had no sale with {target} for this item.", "TargetUser")
        for f in self.market.trading.feedback:
            if f.commenter == commenter and f.transaction_id == line.line_item_id and f.item_id == line.item_id:
                raise Failure(55, "Feedback already left.", "You have already left feedback for this sale.", "ItemID")
        feedback = Feedback(
            self.market.trading.new_id(7000000000),
            commenter,
            target,
            "Seller" if target == order.seller else "Buyer",
            str(kind),
            str(text),
            stamp(),
            line.item_id,
            line.line_item_id,
            line.title,
        )
        self.market.trading.feedback.append(feedback)
        user = self.market.users.get(target)
        if user is not None:
            user.feedback += {"Positive": 1, "Neutral": 0, "Negative": -1}[feedback.comment_type]
        return feedback

    def transaction_fields(self, order: Order, line: LineItem, with_item: bool = True) -> dict:
        item = self.market.items.get(line.item_id)
        buyer = self.market.users.get(order.buyer)
        return {
            "Buyer": {"UserID": order.buyer, "FeedbackScore": buyer.feedback if buyer else 0},
            "Item": (
                {"ItemID": line.item_id, "Title": line.title, "Seller": {"UserID": order.seller}}
                if with_item or item is None
                else None
            ),
            "QuantityPurchased": line.quantity,
            "Status": {
                "CheckoutStatus": "CheckoutComplete" if order.paid else "CheckoutIncomplete",
                "CompleteStatus": "Complete" if order.paid else "Incomplete",
            },
            "TransactionID": line.line_item_id,
            "TransactionPrice": Amount(line.price, line.currency),
            "CreatedDate": order.created,
            "ShippedTime": order.shipments[-1].shipped if order.shipments else None,
            "PaidTime": order.created if order.paid else None,
            "OrderLineItemID": f"{line.item_id}-{line.line_item_id}",
            "ContainingOrder": {"OrderID": order.order_id, "OrderStatus": self.order_status(order)},
        }

    @staticmethod
    def order_status(order: Order) -> str:
        if order.status == "CANCELLED":
            return "Cancelled"
        return "Completed" if order.paid else "Active"

    def order_fields(self, order: Order) -> dict:
        tracking = [
            {"ShipmentTrackingNumber": s.tracking_number, "ShippingCarrierUsed": s.carrier}
            for s in order.shipments
            if s.tracking_number
        ]
        currency = order.line_items[0].currency if order.line_items else "USD"
        return {
            "OrderID": order.order_id,
            "OrderStatus": self.order_status(order),
            "CheckoutStatus": {"Status": "Complete" if order.paid else "Incomplete"},
            "ShippingDetails": {"ShipmentTrackingDetails": tracking or None},
            "CreatedTime": order.created,
            "SellerUserID": order.seller,
            "Subtotal": Amount(order.total, currency),
            "Total": Amount(order.total, currency),
            "TransactionArray": {
                "Transaction": [self.transaction_fields(order, li) for li in order.line_items],
            },
            "BuyerUserID": order.buyer,
            "PaidTime": order.created if order.paid else None,
            "ShippedTime": order.shipments[-1].shipped if order.shipments else None,
            "OrderFulfillmentStatus": order.status,
        }

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
