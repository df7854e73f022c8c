"""eBay's REST APIs answer a failure with a 4xx/5xx status and a body of
``errors[]`` (errorId, domain, category, message, longMessage, parameters): this
turns it into a typed statement error carrying the HTTP status and eBay's errors,
as ``status.py`` does for the legacy APIs' ``Ack`` Failure — so a failed write
stops the writes after it and ``try``/``||`` can handle it. ``warnings[]`` on a 2xx
answer stay a success (the caller sees them in the answer).
"""

from __future__ import annotations

from typing import Any

from ..errors import UpstreamError


class EbayRestError(UpstreamError):
    """An eBay REST call answered an error status with eBay's ``errors[]``."""


def errors_of(body: Any) -> list[dict[str, Any]]:
    """eBay's errors as ``{"errorId", "domain", "category", "message", "longMessage",
    "parameters"}`` dicts (members eBay left out are absent)."""
    raw = body.get("errors") if isinstance(body, dict) else None
    found = []
    for err in raw if isinstance(raw, list) else []:
        if isinstance(err, dict):
            keys = ("errorId", "domain", "subdomain", "category", "message", "longMessage", "parameters")
            found.append({k: err[k] for k in keys if k in err})
    return found


def check_status(table: str, status: int, body: Any) -> int | None:
    """For ``patch_status``: raise EbayRestError for an error status whose body has
    eBay's ``errors[]``; keep any other status (a bare 404 stays the engine's error)."""
    if 200 <= status < 300:
        return None
    errors = errors_of(body)
    if not errors:
        return None
    summary = "; ".join(
        f"{e.get('errorId', '?')} {e.get('category', '')}: {e.get('longMessage') or e.get('message', '')}".replace(
            "  ", " "
        )
        for e in errors
    )
    error = EbayRestError(f"{table}: eBay answered {status}: {summary}", status=status, body=body)
    error.details["ebay_errors"] = errors
    error.details["errorId"] = errors[0].get("errorId")
    raise error
