"""The emulator's generated catalogue: thousands of active listings over a realistic
category tree, so that ordinary searches (camera, laptop, book, guitar, iphone…) find
pages of results, as they do on eBay.

Deterministic: a seeded random generator draws every listing from the vocabulary in
``catalogue.json`` (category tree with eBay's ids, brands and models, attributes, price
bands, conditions, places, sellers' names), so the same seed gives the same items, ids,
titles, prices and sellers. Only the start and end times follow the clock: they are
offsets from when the marketplace is (re)set, so listings are always live. No network;
the listings are generated once per process (about 0.1 s for 10,000) and turned into
fresh state on every reset. This module builds plain rows; ``state.py`` makes them items.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

VOCABULARY = Path(__file__).with_name("catalogue.json")
FIRST_ITEM_ID = 265_000_000_000
FREE_SHIPPING_SHARE = 0.55
SHIPPING_COSTS = (3.99, 4.99, 5.99, 7.5, 8.99, 12.5, 19.99)


@dataclass(frozen=True)
class Listing:
    """One generated listing; times are minutes from the moment the marketplace is set."""

    item_id: str
    title: str
    category_id: str
    category_name: str
    price: float
    listing_type: str  # FixedPrice | Chinese
    best_offer: bool
    seller: str
    start_minutes: int  # negative: started that long ago
    end_minutes: int
    quantity: int
    city: str
    region: str
    postal_code: str
    country: str
    condition_id: int
    shipping_cost: float
    bid_count: int

    def fields(self, at: datetime) -> dict[str, Any]:
        """The arguments of ``state.Item`` for this listing, its times counted from ``at``."""
        return {
            "item_id": self.item_id,
            "title": self.title,
            "category_id": self.category_id,
            "category_name": self.category_name,
            "price": self.price,
            "currency": "USD",
            "listing_type": self.listing_type,
            "seller": self.seller,
            "start": _stamp(at + timedelta(minutes=self.start_minutes)),
            "end": _stamp(at + timedelta(minutes=self.end_minutes)),
            "quantity": self.quantity,
            "location": ",".join(p for p in (self.city, self.region, self.country) if p),
            "country": self.country,
            "postal_code": self.postal_code,
            "condition_id": self.condition_id,
            "gallery_url": f"https://i.ebayimg.com/images/g/{self.item_id}/s-l225.jpg",
            "view_url": f"https://www.ebay.com/itm/{self.item_id}",
            "bid_count": self.bid_count,
            "best_offer": self.best_offer,
            "shipping_cost": self.shipping_cost,
        }


def _stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.000Z")


@cache
def vocabulary() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VOCABULARY.read_text(encoding="utf-8"))
    return data


def category_tree() -> list[tuple[str, str, str | None]]:
    """(category id, name, parent id) of every category, parents first."""
    return [(c[0], c[1], c[2]) for c in vocabulary()["tree"]]


def condition_names() -> dict[int, str]:
    return {int(k): v for k, v in vocabulary()["conditionNames"].items()}


def _sellers(rng: random.Random, count: int) -> list[tuple[str, int]]:
    first, second, suffix = vocabulary()["sellerParts"]
    names: dict[str, int] = {}
    while len(names) < count:
        name = rng.choice(first) + rng.choice(suffix) + rng.choice(second)
        if rng.random() < 0.6:
            name += str(rng.randint(1, 999))
        names.setdefault(name.lower(), int(rng.lognormvariate(5.5, 1.6)) % 90_000 + 1)
    return list(names.items())


def _price(rng: random.Random, low: float, high: float) -> float:
    value = low * (high / low) ** rng.random()
    if value < 20:
        return round(int(value) + rng.choice((0.49, 0.95, 0.99)), 2)
    return round(float(int(value)) + rng.choice((0.0, 0.99, 0.99, 0.95)), 2)


def _title(rng: random.Random, product: str, attributes: list[list[str]]) -> str:
    words = [product] + [rng.choice(group) for group in attributes]
    title = " ".join(w for w in words if w)
    return title if len(title) <= 80 else title[:80].rsplit(" ", 1)[0]


@cache
def generate(count: int = 10_000, seed: int = 1, sellers: int = 400) -> tuple[tuple[Listing, ...], dict[str, int]]:
    """``count`` listings and the sellers (user id → feedback score) they belong to."""
    rng = random.Random(seed)
    voc = vocabulary()
    names = {c[0]: c[1] for c in voc["tree"]}
    leaves = sorted(voc["leaves"].items())
    weights = [len(spec["products"]) + 4 for _, spec in leaves]
    people = _sellers(rng, sellers)
    places = [tuple(p) for p in voc["places"]]
    place_weights = [6 if p[3] == "US" else 1 for p in places]
    out: list[Listing] = []
    for n, (leaf, spec) in enumerate(rng.choices(leaves, weights, k=count)):
        conditions = voc["conditions"][spec["conditions"]]
        condition = rng.choices([c for c, _ in conditions], [w for _, w in conditions])[0]
        auction = rng.random() < 0.3
        price = _price(rng, *spec["price"])
        if condition in (3000, 7000):
            price = round(int(price * (0.45 if condition == 7000 else 0.75)) + 0.99, 2)
        city, region, postal, country = rng.choices(places, place_weights)[0]
        start = -rng.randint(10, 30 * 24 * 60)
        end = rng.randint(30, 10 * 24 * 60) if auction else rng.randint(24 * 60, 30 * 24 * 60)
        out.append(
            Listing(
                item_id=str(FIRST_ITEM_ID + n * 17),
                title=_title(rng, rng.choice(spec["products"]), spec["attributes"]),
                category_id=leaf,
                category_name=names[leaf],
                price=price,
                listing_type="Chinese" if auction else "FixedPrice",
                best_offer=not auction and rng.random() < 0.25,
                seller=rng.choice(people)[0],
                start_minutes=start,
                end_minutes=end,
                quantity=1 if auction else rng.choice((1, 1, 1, 2, 3, 5, 10, 25)),
                city=city,
                region=region,
                postal_code=postal,
                country=country,
                condition_id=condition,
                shipping_cost=0.0 if rng.random() < FREE_SHIPPING_SHARE else rng.choice(SHIPPING_COSTS),
                bid_count=rng.randint(0, 14) if auction and rng.random() < 0.6 else 0,
            )
        )
    return tuple(out), dict(people)
