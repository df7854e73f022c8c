"""What the emulator's REST handlers share: the call they are given, their reply, eBay's
REST error shape (``{"errors": [{"errorId", "domain", "category", "message", …}]}``),
amounts, and the sellers' REST-only data (inventory items, offers, business policies)
that lives beside the shared marketplace and is reset with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .oauth_server import Grant
from .rest_routes import Route
from .state import Item, Marketplace

NOT_EMULATED_ID = 99501  # the emulator's own: an operation of the digest it does not emulate
# each API's errorId for its own internal errors (the digest's APPLICATION errors with status 500)
INTERNAL_IDS = {
    "API_BROWSE": 12000,
    "API_TAXONOMY": 62000,
    "API_INVENTORY": 25001,
    "API_FULFILLMENT": 30500,
    "API_ACCOUNT": 20500,
}
INTERNAL_ID = 2003  # eBay's generic "Internal error", for the other APIs


class RestError(Exception):
    """An eBay REST error; ``domain`` defaults to the API's (API_BROWSE, API_INVENTORY…)."""

    def __init__(
        self,
        status: int,
        error_id: int,
        message: str,
        long_message: str | None = None,
        *,
        parameters: Mapping[str, str] | None = None,
        category: str = "REQUEST",
        domain: str | None = None,
    ):
        super().__init__(message)
        self.status, self.error_id, self.message, self.long_message = status, error_id, message, long_message
        self.parameters, self.category, self.domain = dict(parameters or {}), category, domain

    def body(self, domain: str) -> dict[str, Any]:
        error: dict[str, Any] = {
            "errorId": self.error_id,
            "domain": self.domain or domain,
            "category": self.category,
            "message": self.message,
        }
        if self.long_message:
            error["longMessage"] = self.long_message
        if self.parameters:
            error["parameters"] = [{"name": k, "value": v} for k, v in self.parameters.items()]
        return {"errors": [error]}


@dataclass
class Reply:
    body: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class SellerData:
    """Sellers' REST-only state: inventory items by (seller, sku), offers, policies."""

    inventory: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    offers: dict[str, dict[str, Any]] = field(default_factory=dict)
    policies: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # kind → id → policy
    next_id: int = 5_000_000_001

    def new_id(self) -> str:
        self.next_id += 1
        return str(self.next_id)


@dataclass
class RestCall:
    route: Route
    params: dict[str, str]  # path parameters
    query: Mapping[str, str]
    headers: Mapping[str, str]
    raw: bytes
    grant: Grant
    market: Marketplace
    data: SellerData
    base: str  # the emulator's base URL, for hrefs

    @property
    def user(self) -> str:
        return self.grant.user or ""

    @property
    def marketplace(self) -> str:
        return self.headers.get("X-EBAY-C-MARKETPLACE-ID") or "EBAY_US"

    def href(self, path: str, query: Mapping[str, Any] | None = None) -> str:
        from urllib.parse import urlencode

        prefix = self.route.path.split("/", 4)[:4]  # /buy/browse/v1
        return self.base + "/".join(prefix) + path + (f"?{urlencode(query)}" if query else "")

    def json(self) -> dict[str, Any]:
        """The request body as a JSON object (400 when it is not one)."""
        try:
            value = json.loads(self.raw or b"null")
        except ValueError:
            raise RestError(400, 2004, "Could not serialize field", "The request body is not valid JSON.") from None
        if not isinstance(value, dict):
            raise RestError(400, 2004, "Could not serialize field", "The request body must be a JSON object.")
        return value

    def int_param(self, name: str, default: int, low: int, high: int, error_id: int) -> int:
        text = self.query.get(name)
        if text is None or text == "":
            return default
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise RestError(
                400,
                error_id,
                f"The '{name}' value is invalid.",
                f"{name} must be {low}..{high}",
                parameters={name: text},
            )
        return value

    def required(self, name: str, error_id: int, value: Any = None) -> Any:
        """A required query parameter (or ``value``): 400 naming it when missing."""
        found = self.query.get(name) if value is None else value
        if found is None or found == "":
            raise RestError(
                400,
                error_id,
                f"The '{name}' field is missing.",
                f"The '{name}' field is required for this call.",
                parameters={"fieldName": name},
            )
        return found


Handler = Callable[[RestCall], Reply]


def amount(value: float, currency: str = "USD") -> dict[str, str]:
    return {"value": f"{value:.2f}", "currency": currency}


def money(doc: Any, path: str, error_id: int) -> tuple[float, str]:
    """``{"value": "12.50", "currency": "USD"}`` at ``path`` of a request body."""
    node = doc
    for part in path.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    try:
        value = float(node["value"])
        if not 0 <= value < 1e12 or not isinstance(node.get("currency", ""), str):  # NaN and inf too
            raise ValueError(value)
    except (TypeError, KeyError, ValueError, AttributeError):
        raise RestError(400, error_id, f"Invalid value for {path}.", parameters={"fieldName": path}) from None
    return value, str(node.get("currency") or "USD")


def page(call: RestCall, total: int, limit: int, offset: int, path: str, query: Mapping[str, Any]) -> dict[str, Any]:
    """Paging members of a collection: href, limit, offset, total, next and prev."""
    out: dict[str, Any] = {"href": call.href(path, {**query, "limit": limit, "offset": offset})}
    out |= {"limit": limit, "offset": offset, "total": total}
    if offset + limit < total:
        out["next"] = call.href(path, {**query, "limit": limit, "offset": offset + limit})
    if offset > 0:
        out["prev"] = call.href(path, {**query, "limit": limit, "offset": max(0, offset - limit)})
    return out


def browse_id(item: Item) -> str:
    return f"v1|{item.item_id}|0"
