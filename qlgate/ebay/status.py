"""eBay reports failures with HTTP 200 and ``Ack`` = ``Failure``: these helpers
turn such a response into a statement error carrying eBay's error codes and
messages (``Warning`` stays a success), so a failed write stops the writes
after it and ``try``/``||`` can handle it.
"""

from __future__ import annotations

from typing import Any

from ..errors import UpstreamError
from ..oauth.rejection import TokenRejected

FAILURES = ("failure", "partialfailure")
# Trading's answers to an OAuth (IAF) token it refuses: 931 invalid token (the emulator's,
# and eBay's for a token it does not know), 932 hard-expired token, 21916984 invalid IAF
# token, 21917053 expired IAF token
TOKEN_REFUSED = frozenset({"931", "932", "21916984", "21917053"})


class EbayError(UpstreamError):
    """An eBay call answered Ack=Failure (or a bare errorMessage)."""


class EbayTokenRefused(EbayError, TokenRejected):
    """A call that carried an OAuth token in ``X-EBAY-API-IAF-TOKEN`` was refused for the
    token: the engine renews it and sends the call again once (``oauth.rejection``)."""


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _response_root(body: Any) -> dict | None:
    """The ``<Call>Response`` object whether the body is wrapped or not."""
    if not isinstance(body, dict):
        return None
    if any(k in body for k in ("Ack", "ack")):
        return body
    if len(body) == 1:
        (inner,) = body.values()
        if isinstance(inner, list) and inner and isinstance(inner[0], dict):
            inner = inner[0]  # Finding JSON wraps everything in arrays
        if isinstance(inner, dict):
            return inner
    return None


def _first(value: Any) -> Any:
    while isinstance(value, list):
        value = value[0] if value else None
    return value


def errors_of(body: Any) -> list[dict[str, Any]]:
    """eBay's errors as ``{"code", "severity", "message", "classification"}`` dicts."""
    root = _response_root(body) or {}
    found: list[dict[str, Any]] = []
    for err in _as_list(root.get("Errors")):  # Trading and Shopping
        if isinstance(err, dict):
            found.append(
                {
                    "code": err.get("ErrorCode"),
                    "severity": err.get("SeverityCode"),
                    "message": err.get("LongMessage") or err.get("ShortMessage"),
                    "short": err.get("ShortMessage"),
                    "classification": err.get("ErrorClassification"),
                }
            )
    message_block = root.get("errorMessage") if root else None
    if message_block is None and isinstance(body, dict):
        message_block = body.get("errorMessage")
    for block in _as_list(message_block):  # Finding
        for err in _as_list(block.get("error") if isinstance(block, dict) else None):
            if isinstance(err, dict):
                found.append(
                    {
                        "code": _first(err.get("errorId")),
                        "severity": _first(err.get("severity")),
                        "message": _first(err.get("message")),
                        "classification": _first(err.get("category")),
                    }
                )
    return found


def check_ack(table: str, status: int, body: Any, *, oauth_token: bool = False) -> int | None:
    """For ``patch_status``: raise EbayError for a failed call, else keep the status.
    ``oauth_token``: the call carried an OAuth token, so an error that says a token was
    refused is an ``EbayTokenRefused`` (renewed and sent again once)."""
    root = _response_root(body)
    ack = _first(root.get("Ack", root.get("ack"))) if root else None
    framework = isinstance(body, dict) and set(body) == {"errorMessage"}
    if not framework and not (isinstance(ack, str) and ack.lower() in FAILURES):
        return None
    errors = errors_of(body)
    system = any(str(e.get("classification") or "").lower() in ("systemerror", "system") for e in errors)
    summary = (
        "; ".join(
            f"{e['code']} {e.get('severity') or ''}: {e.get('message')}".strip() for e in errors if e.get("message")
        )
        or f"Ack {ack or 'Failure'}"
    )
    refused = oauth_token and any(str(e.get("code") or "").strip() in TOKEN_REFUSED for e in errors)
    error = (EbayTokenRefused if refused else EbayError)(
        f"{table}: eBay answered {ack or 'an error'}: {summary}",
        status=502 if system else 400,
        body=body,
        upstream_status=status,
    )
    error.details["ebay_errors"] = errors
    raise error
