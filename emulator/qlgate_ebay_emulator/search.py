"""One search over the marketplace for every API that searches: Finding's find* calls,
Browse's ``item_summary/search``, Shopping's FindProducts and Trading's lists.

An inverted index (title word → item ids, plus category and seller → item ids) is kept
up to date by ``Marketplace.add`` and ``Marketplace.reindex`` (call it after changing an
item's title, category or seller), so a keyword search over the 10,000-item catalogue
touches only the items that match. Keywords: every keyword must match; a keyword matches
an item whose title has a word starting with it (``camera`` → "Cameras", case ignored),
a number only the same number (``5`` → "iPhone 5", not "512GB");
a keyword no title word starts with, or one with punctuation, matches titles containing
it once case and spaces are ignored (``iphone5`` → "iPhone 5", ``at&t``). Ended items
stay indexed: a search asks for active or completed ones.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import Item

WORD = re.compile(r"[a-z0-9]+")
AUCTION_TYPES = frozenset({"Chinese", "Auction", "AuctionWithBIN", "Dutch"})

# sort keys: BestMatch keeps listing order (seed items first), the others as named
SORTS = ("best", "price", "-price", "price+shipping", "-price+shipping", "ending", "newest")


def iso_stamp(text: str) -> str:
    """An ISO 8601 time as the emulator's stamps are written (``2024-05-01T10:00:00.000Z``),
    so that it compares with them as text; ValueError when it is not one."""
    when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    try:
        when = when.astimezone(UTC) if when.tzinfo else when
    except OverflowError:  # a time at the ends of the calendar
        raise ValueError(text) from None
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def words(text: str) -> list[str]:
    if not isinstance(text, str):  # never expected (requests are checked): an odd title is not searchable
        return []
    return WORD.findall(text.lower())


def compact(text: str) -> str:
    return text.lower().replace(" ", "")


def buying_options(item: Item) -> list[str]:
    """Browse's buyingOptions of an item: AUCTION or FIXED_PRICE, plus BEST_OFFER."""
    options = ["AUCTION" if item.listing_type in AUCTION_TYPES else "FIXED_PRICE"]
    if item.best_offer:
        options.append("BEST_OFFER")
    return options


@dataclass
class Query:
    """What to find; None (or empty) means no restriction."""

    keywords: str | None = None
    categories: Iterable[str] | None = None  # any of these, descendants included
    sellers: Iterable[str] | None = None
    completed: bool = False  # ended listings (findCompletedItems) instead of active ones
    min_price: float | None = None
    max_price: float | None = None
    currency: str | None = None
    conditions: Iterable[int] | None = None
    buying: Iterable[str] | None = None  # AUCTION / FIXED_PRICE / BEST_OFFER: any of them
    free_shipping: bool = False
    end_from: str | None = None  # stamps (YYYY-MM-DDTHH:MM:SS.mmmZ), compared as text
    end_to: str | None = None
    countries: Iterable[str] | None = None
    exclude_sellers: Iterable[str] | None = None
    sort: str = "best"


class SearchIndex:
    def __init__(self) -> None:
        self.postings: dict[str, set[str]] = {}
        self.terms: list[str] = []  # sorted, for prefix look-ups
        self.by_category: dict[str, set[str]] = {}
        self.by_seller: dict[str, set[str]] = {}
        self.order: dict[str, int] = {}
        self.compact: dict[str, str] = {}
        self.indexed: dict[str, tuple[frozenset[str], str, str]] = {}
        self.children: dict[str, list[str]] = {}

    # ------------------------------------------------------------- maintenance
    def add(self, item: Item) -> None:
        if item.item_id in self.indexed:
            self.remove(item.item_id)
        item_id = item.item_id
        terms = frozenset(words(item.title))
        for term in terms:
            ids = self.postings.get(term)
            if ids is None:
                ids = self.postings[term] = set()
                insort(self.terms, term)
            ids.add(item_id)
        self.by_category.setdefault(item.category_id, set()).add(item_id)
        self.by_seller.setdefault(item.seller, set()).add(item_id)
        self.order.setdefault(item_id, len(self.order))
        self.compact[item_id] = compact(item.title)
        self.indexed[item_id] = (terms, item.category_id, item.seller)

    def bulk_add(self, items: Iterable[Item]) -> None:
        """Many items at once: the term list is sorted once at the end."""
        postings, order = self.postings, self.order
        for item in items:
            item_id = item.item_id
            terms = frozenset(words(item.title))
            for term in terms:
                postings.setdefault(term, set()).add(item_id)
            self.by_category.setdefault(item.category_id, set()).add(item_id)
            self.by_seller.setdefault(item.seller, set()).add(item_id)
            order.setdefault(item_id, len(order))
            self.compact[item_id] = compact(item.title)
            self.indexed[item_id] = (terms, item.category_id, item.seller)
        self.terms = sorted(postings)

    def remove(self, item_id: str) -> None:
        terms, category, seller = self.indexed.pop(item_id)
        for term in terms:
            self.postings[term].discard(item_id)
        self.by_category[category].discard(item_id)
        self.by_seller[seller].discard(item_id)
        self.compact.pop(item_id, None)

    def set_tree(self, parents: Mapping[str, str | None]) -> None:
        """The category tree (category → parent), for searches that include descendants."""
        self.children = {}
        for category, parent in parents.items():
            if parent:
                self.children.setdefault(parent, []).append(category)

    # ------------------------------------------------------------- look-ups
    def descendants(self, category: str) -> list[str]:
        out, todo = [], [category]
        while todo:
            current = todo.pop()
            out.append(current)
            todo.extend(self.children.get(current, ()))
        return out

    def _keyword(self, keyword: str) -> set[str]:
        if keyword.isdigit() and keyword in self.postings:  # numbers match whole words: "5" is not "512GB"
            return set(self.postings[keyword])
        if WORD.fullmatch(keyword):
            start = bisect_left(self.terms, keyword)
            found: set[str] = set()
            for term in self.terms[start:]:
                if not term.startswith(keyword):
                    break
                found |= self.postings[term]
            if found:
                return found
        return {item_id for item_id, title in self.compact.items() if keyword in title}

    def candidates(self, query: Query) -> set[str] | None:
        """The ids the keyword, category and seller parts of ``query`` allow (None: all)."""
        sets: list[set[str]] = []
        for keyword in sorted({k.lower() for k in (query.keywords or "").split()}, key=len, reverse=True):
            sets.append(self._keyword(keyword))
            if not sets[-1]:
                return set()
        if query.categories:
            ids: set[str] = set()
            for category in query.categories:
                for c in self.descendants(str(category)):
                    ids |= self.by_category.get(c, set())
            sets.append(ids)
        if query.sellers:
            sets.append(set().union(*(self.by_seller.get(s, set()) for s in query.sellers)))
        if not sets:
            return None
        sets.sort(key=len)
        found = set(sets[0])
        for other in sets[1:]:
            found &= other
        return found

    def search(self, items: Mapping[str, Item], query: Query) -> list[Item]:
        ids = self.candidates(query)
        pool: Iterable[Item] = items.values() if ids is None else (items[i] for i in ids if i in items)
        found = [item for item in pool if _passes(item, query)]
        return _sorted(found, query.sort, self.order)


def _passes(item: Item, q: Query) -> bool:
    if item.active == q.completed:
        return False
    if q.min_price is not None and item.price < q.min_price:
        return False
    if q.max_price is not None and item.price > q.max_price:
        return False
    if q.currency and item.currency != q.currency:
        return False
    if q.conditions is not None and item.condition_id not in q.conditions:
        return False
    if q.buying is not None and not set(buying_options(item)) & set(q.buying):
        return False
    if q.free_shipping and item.shipping_cost:
        return False
    if q.end_from and item.end < q.end_from:
        return False
    if q.end_to and item.end > q.end_to:
        return False
    if q.countries is not None and (item.country or "") not in q.countries:
        return False
    return not (q.exclude_sellers and item.seller in q.exclude_sellers)


def _sorted(found: list[Item], sort: str, order: Mapping[str, int]) -> list[Item]:
    last = len(order)
    if sort == "price":
        return sorted(found, key=lambda i: (i.price, order.get(i.item_id, last)))
    if sort == "-price":
        return sorted(found, key=lambda i: (-i.price, order.get(i.item_id, last)))
    if sort == "price+shipping":
        return sorted(found, key=lambda i: (i.price + i.shipping_cost, order.get(i.item_id, last)))
    if sort == "-price+shipping":
        return sorted(found, key=lambda i: (-i.price - i.shipping_cost, order.get(i.item_id, last)))
    if sort == "ending":
        return sorted(found, key=lambda i: (i.end, order.get(i.item_id, last)))
    if sort == "newest":
        return sorted(found, key=lambda i: (i.start, order.get(i.item_id, last)), reverse=True)
    return sorted(found, key=lambda i: order.get(i.item_id, last))
