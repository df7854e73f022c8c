"""The emulator's marketplace: users (by token), listings, watch lists, bids and
Selling Manager products. One consistent state across every service: an item
added with AddItem is found by search, returned by GetItem, can be watched,
bid on and ended.
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from .catalogue import category_tree, generate
from .endpoints import SEED as SEED
from .search import Query, SearchIndex
from .trading_state import TradingState

# eBay's bid increments by price band (USD)
INCREMENTS = [
    (0.99, 0.05),
    (4.99, 0.25),
    (24.99, 0.50),
    (99.99, 1.00),
    (249.99, 2.50),
    (499.99, 5.00),
    (999.99, 10.00),
    (2499.99, 25.00),
    (4999.99, 50.00),
    (float("inf"), 100.00),
]


def now() -> datetime:
    return datetime.now(UTC)


def stamp(when: datetime | None = None) -> str:
    when = when or now()
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def increment(price: float) -> float:
    return next(step for bound, step in INCREMENTS if price <= bound)


@dataclass
class User:
    user_id: str
    token: str | None = None
    feedback: int = 0
    folders: dict[str, str] = field(default_factory=dict)
    watch: list[str] = field(default_factory=list)


@dataclass
class Item:
    item_id: str
    title: str
    category_id: str
    category_name: str
    price: float
    currency: str
    listing_type: str
    seller: str
    start: str
    end: str
    quantity: int = 1
    location: str | None = None
    country: str | None = "US"
    postal_code: str | None = None
    condition_id: int = 1000
    description: str = ""
    gallery_url: str | None = None
    view_url: str | None = None
    status: str = "Active"
    bid_count: int = 0
    high_bidder: str | None = None
    max_bids: dict[str, float] = field(default_factory=dict)
    minimum_to_bid: float | None = None
    quantity_sold: int = 0
    best_offer: bool = False  # Best Offer enabled (Browse's BEST_OFFER buying option)
    shipping_cost: float = 0.0  # 0: free shipping

    @property
    def active(self) -> bool:
        return self.status == "Active"


@dataclass
class Category:
    """A node of the category tree (Taxonomy, GetCategories, Finding's categoryId)."""

    category_id: str
    name: str
    parent_id: str | None = None  # None: a top-level category
    level: int = 1
    leaf: bool = True


@dataclass
class LineItem:
    line_item_id: str
    item_id: str
    title: str
    quantity: int
    price: float  # unit price
    currency: str = "USD"
    sku: str | None = None


@dataclass
class Shipment:
    """A shipping fulfillment: what was shipped, how, and with which tracking number."""

    fulfillment_id: str
    line_item_ids: list[str]
    carrier: str
    tracking_number: str
    shipped: str  # stamp()


@dataclass
class Order:
    """One purchase, however it was made (Trading's buy/win, an offer bought through
    REST): seen by Trading GetOrders and Fulfillment getOrders alike."""

    order_id: str
    buyer: str
    seller: str
    line_items: list[LineItem]
    created: str  # stamp()
    status: str = "NOT_STARTED"  # NOT_STARTED | IN_PROGRESS | FULFILLED (Fulfillment's orderFulfillmentStatus)
    paid: bool = True
    shipments: list[Shipment] = field(default_factory=list)

    @property
    def total(self) -> float:
        return round(sum(li.price * li.quantity for li in self.line_items), 2)


@dataclass
class Product:
    product_id: str
    owner: str
    details: dict[str, Any]


class Marketplace:
    def __init__(self, data: dict[str, Any] | None = None):
        self.reset(data)

    def reset(self, data: dict[str, Any] | None = None) -> None:
        data = copy.deepcopy(data) if data is not None else json.loads(SEED.read_text(encoding="utf-8"))
        self.applications = set(data.get("applications", []))
        self.users: dict[str, User] = {}
        self.tokens: dict[str, str] = {}
        for u in data.get("users", []):
            user = User(u["UserID"], u.get("token"), u.get("FeedbackScore", 0), dict(u.get("folders", {})))
            self.users[user.user_id] = user
            if user.token:
                self.tokens[user.token] = user.user_id
        self.index = SearchIndex()  # search.py: kept up to date by add() and reindex()
        self.items: dict[str, Item] = {}
        for i in data.get("items", []):
            self.add(
                Item(
                    i["ItemID"],
                    i["Title"],
                    str(i["CategoryID"]),
                    i.get("CategoryName", ""),
                    float(i["Price"]),
                    i.get("Currency", "USD"),
                    i.get("ListingType", "FixedPrice"),
                    i["Seller"],
                    i.get("StartTime") or stamp(),
                    i.get("EndTime") or stamp(now() + timedelta(days=7)),
                    location=i.get("Location"),
                    country=i.get("Country"),
                    postal_code=i.get("PostalCode"),
                    condition_id=int(i.get("ConditionID") or 1000),
                    gallery_url=i.get("GalleryURL"),
                    view_url=i.get("ViewItemURL"),
                    description=i.get("Description", ""),
                )
            )
        self.products: dict[str, Product] = {}
        self.next_item = 110096039601
        self.next_product = 5027985010
        self.categories: dict[str, Category] = {}
        self.orders: dict[str, Order] = {}
        self.next_order = 1
        self._load_catalogue(data.get("catalogue"))
        self.oauth_seed: dict[str, Any] | None = data.get("oauth")  # oauth_server.py: applications, refresh tokens
        # ---- Trading API (trading_*.py): passwords, ended seed listings, Trading-only state
        self.passwords: dict[str, str] = {
            u["UserID"]: u["password"] for u in data.get("users", []) if u.get("password")
        }
        for i in data.get("items", []):
            if i.get("ListingStatus") and i["ItemID"] in self.items:
                self.items[i["ItemID"]].status = i["ListingStatus"]
        for u in data.get("users", []):  # more tokens of one user (the 2012 post's sample token)
            self.tokens.update({t: u["UserID"] for t in u.get("tokens", [])})
        self.access_tokens: dict[str, tuple[str, float]] = {}  # OAuth user token → (user id, expires at)
        self.trading = TradingState.from_seed(data)
        # ---- end Trading API

    # ---------------------------------------------------------------- users
    def user_for_token(self, token: str | None) -> User | None:
        user_id = self.tokens.get(token or "")
        return self.users.get(user_id) if user_id else None

    def user_for_password(self, user_id: str | None, password: str | None) -> User | None:
        """Trading's legacy ``RequesterCredentials`` Username and Password (seed users with a password)."""
        if not user_id or not password or self.passwords.get(user_id) != password:
            return None
        return self.users.get(user_id)

    def user_for_access_token(self, token: str) -> User | None:
        """The user an unexpired OAuth user access token was issued to (Trading's
        ``X-EBAY-API-IAF-TOKEN``); the OAuth token endpoint fills ``access_tokens``."""
        user_id, expires = self.access_tokens.get(token, ("", 0.0))
        return self.users.get(user_id) if user_id and expires > time.time() else None

    def user(self, user_id: str) -> User | None:
        return self.users.get(user_id)

    # ---------------------------------------------------------------- items
    def add(self, item: Item) -> Item:
        self.items[item.item_id] = item
        self.users.setdefault(item.seller, User(item.seller))
        self.index.add(item)
        return item

    def reindex(self, item: Item) -> None:
        """Call after changing an item's title, category or seller: searches find it by the new ones."""
        self.index.add(item)

    def _load_catalogue(self, spec: dict[str, Any] | None) -> None:
        """The category tree, and the generated listings and sellers of catalogue.py when the
        data asks for them (``"catalogue": {"items": 10000, "seed": 1, "sellers": 400}``)."""
        for category_id, name, parent in category_tree():
            parent_level = self.categories[parent].level if parent else 0
            self.categories[category_id] = Category(category_id, name, parent, parent_level + 1)
            if parent:
                self.categories[parent].leaf = False
        for item in self.items.values():  # seed items' categories the tree lacks: top-level leaves
            self.categories.setdefault(item.category_id, Category(item.category_id, item.category_name))
        self.index.set_tree({c.category_id: c.parent_id for c in self.categories.values()})
        if not spec:
            return
        listings, sellers = generate(
            int(spec.get("items", 10_000)), int(spec.get("seed", 1)), int(spec.get("sellers", 400))
        )
        for user_id, score in sellers.items():
            self.users.setdefault(user_id, User(user_id, feedback=score))
        at = now().replace(second=0, microsecond=0)
        items = []
        for row in listings:
            item = Item(**row.fields(at))
            self.items[item.item_id] = item
            items.append(item)
        self.index.bulk_add(items)

    def new_item_id(self) -> str:
        while str(self.next_item) in self.items:
            self.next_item += 1
        item_id = str(self.next_item)
        self.next_item += 1
        return item_id

    def search(
        self,
        *,
        keywords: str | None = None,
        category: str | None = None,
        seller: str | None = None,
        completed: bool = False,
    ) -> list[Item]:
        """Items matching every keyword (search.py says how), in ``category`` or one
        below it, listed by ``seller``; active ones, or ended ones with ``completed``."""
        query = Query(keywords, [str(category)] if category else None, [seller] if seller else None, completed)
        return self.find(query)

    def find(self, query: Query) -> list[Item]:
        """The items ``query`` (search.py) asks for, in its order."""
        return self.index.search(self.items, query)

    def bid(self, item: Item, bidder: str, max_bid: float) -> None:
        """A simple English auction: the current price stays at the start price after
        the first bid; the minimum to bid rises by the band's increment."""
        item.max_bids[bidder] = max(max_bid, item.max_bids.get(bidder, 0.0))
        ranked = sorted(item.max_bids.items(), key=lambda kv: -kv[1])
        item.high_bidder = ranked[0][0]
        if len(ranked) > 1:
            item.price = min(ranked[0][1], ranked[1][1] + increment(ranked[1][1]))
        item.bid_count += 1
        item.minimum_to_bid = round(item.price + increment(item.price), 2)

    # ---------------------------------------------------------------- Selling Manager
    def new_product(self, owner: str, details: dict[str, Any]) -> Product:
        product_id = str(self.next_product)
        self.next_product += 1
        product = Product(product_id, owner, {**details, "ProductID": product_id})
        self.products[product_id] = product
        return product

    # ---------------------------------------------------------------- orders
    def buy(self, item: Item, buyer: str, quantity: int = 1, price: float | None = None) -> Order:
        """Record a purchase of ``quantity`` of ``item`` by ``buyer`` (at ``price``, default
        the item's current price): an Order, the item's stock and status updated."""
        order_id = f"{self.next_order:02d}-{10000 + self.next_order:05d}-{20000 + self.next_order:05d}"
        line = LineItem(
            f"{10000000000 + self.next_order}",
            item.item_id,
            item.title,
            quantity,
            item.price if price is None else price,
            item.currency,
        )
        self.next_order += 1
        order = Order(order_id, buyer, item.seller, [line], stamp())
        self.orders[order_id] = order
        item.quantity_sold += quantity
        if item.quantity_sold >= item.quantity:
            item.status = "Completed"
        return order

    def orders_of(self, *, seller: str | None = None, buyer: str | None = None) -> list[Order]:
        return [
            o
            for o in self.orders.values()
            if (seller is None or o.seller == seller) and (buyer is None or o.buyer == buyer)
        ]
