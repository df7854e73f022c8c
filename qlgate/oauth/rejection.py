"""Does a 401 say that the access token itself was refused (expired, revoked,
unknown), so that a fresh token and one more try may succeed? Only then is a call
retried: a 401 for anything else (a missing scope, a wrong application key) would
fail again, and retrying it would cost a token request per call.

A patch may also say so for an upstream that answers a refused token with a 2xx
(eBay Trading: HTTP 200, ``Ack`` Failure, error 931 for an IAF token) by raising a
``TokenRejected`` from ``patch_status``: the call renews the token it carried and
sends again once, as for a 401.

Recognised: RFC 6750's ``WWW-Authenticate: Bearer error="invalid_token"``; eBay's
``{"errors": [{"errorId": 1001, "message": "Invalid access token", …}]}``; a JSON
``{"error": "invalid_token"}``; and an ``errors[].message`` that says the token is
invalid or expired.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..errors import UpstreamError

if TYPE_CHECKING:
    from ..http.client import HttpResponse

EBAY_INVALID_TOKEN = 1001
_SAYS = ("invalid access token", "invalid token", "token expired", "expired token", "token has expired")


class TokenRejected(UpstreamError):
    """Raised by a ``patch_status`` hook: the upstream refused the access token the call
    carried. The call renews it and is sent again once; a second refusal is this error."""


def token_rejected(response: HttpResponse) -> bool:
    if response.status != 401:
        return False
    if "invalid_token" in response.headers.get("www-authenticate", ""):
        return True
    body = response.body
    if not body or len(body) > 65536 or body.lstrip()[:1] not in (b"{", b"["):
        return False
    try:
        answer = json.loads(body)
    except ValueError:
        return False
    return _says_invalid_token(answer)


def _says_invalid_token(answer: Any) -> bool:
    if not isinstance(answer, dict):
        return False
    if answer.get("error") == "invalid_token":
        return True
    errors = answer.get("errors")
    if not isinstance(errors, list):
        return False
    for error in errors:
        if not isinstance(error, dict):
            continue
        if error.get("errorId") in (EBAY_INVALID_TOKEN, str(EBAY_INVALID_TOKEN)):
            return True
        message = error.get("message")
        if isinstance(message, str) and any(s in message.lower() for s in _SAYS):
            return True
    return False
