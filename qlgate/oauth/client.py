"""Asking a token endpoint for a token (RFC 6749 §4.1.3, §4.4, §6): a form POST
with the client's id and secret in HTTP Basic auth, answered with JSON
``access_token``, ``expires_in``, ``token_type`` (eBay's shape) or an OAuth2 error
``error``, ``error_description``.

Failures are ``TokenRequestFailed`` naming the entry and the endpoint. Nothing it
raises or logs holds the client secret, the refresh token, the code or a token:
what the endpoint answers is masked with them before it is quoted.
"""

from __future__ import annotations

import json
import logging
import math
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from .._version import __version__
from ..errors import QlError
from .entries import OAuthEntry
from .errors import TokenRequestFailed
from .tokens import Token

if TYPE_CHECKING:
    from ..http.client import HttpClient

log = logging.getLogger("qlgate.oauth")

TIMEOUT_MS = 15_000
DEFAULT_LIFETIME = 600.0  # seconds, for an answer without expires_in (RFC 6749 makes it optional)
MAX_LIFETIME = 86400.0  # seconds a token is kept at most, whatever expires_in says (eBay's: 2 hours)
# the endpoint refused the credentials themselves: a wrong secret, a revoked or expired refresh token
CREDENTIALS_REFUSED = {"invalid_client", "invalid_grant", "unauthorized_client"}


def basic_auth(entry: OAuthEntry) -> str:
    """``Basic base64(client_id:client_secret)`` (``OAuthEntry.basic_credentials``; eBay's
    ids hold only characters the form encoding keeps)."""
    return "Basic " + entry.basic_credentials


def grant_form(entry: OAuthEntry, refresh_token: str = "") -> dict[str, str]:
    """The form that asks for an access token by the entry's grant."""
    form = {"grant_type": entry.grant}
    if entry.grant == "refresh_token":
        form["refresh_token"] = refresh_token
    if entry.scopes:
        form["scope"] = " ".join(entry.scopes)
    return form


async def fetch_token(http: HttpClient, entry: OAuthEntry, refresh_token: str = "") -> Token:
    """A new access token for ``entry``."""
    started = time.time()
    answer = await post_form(http, entry, grant_form(entry, refresh_token), secrets=(refresh_token,))
    token = token_of(entry, answer, started)
    log.info("auth entry %s: obtained an access token for %.0f s", entry.name, token.lifetime)
    return token


def token_of(entry: OAuthEntry, answer: dict[str, Any], obtained_at: float) -> Token:
    value = answer.get("access_token")
    if not isinstance(value, str) or not value:
        raise TokenRequestFailed(
            f"auth entry '{entry.name}': the token endpoint {entry.token_url} answered without an access_token",
            entry=entry.name,
        )
    return Token(value, obtained_at + lifetime_of(entry, answer.get("expires_in")), obtained_at)


def lifetime_of(entry: OAuthEntry, expires_in: Any) -> float:
    """``expires_in`` in seconds: ``DEFAULT_LIFETIME`` when missing or 0, at most
    ``MAX_LIFETIME`` (a token kept for ever would outlive its revocation); a negative,
    infinite or non-numeric one is a ``TokenRequestFailed``."""
    if expires_in is None or expires_in == "":
        return DEFAULT_LIFETIME
    if isinstance(expires_in, str):
        try:
            expires_in = float(expires_in.strip())
        except ValueError:
            expires_in = None
    try:
        lifetime = (
            float(expires_in) if isinstance(expires_in, (int, float)) and not isinstance(expires_in, bool) else None
        )
    except OverflowError:  # an integer too large for a float
        lifetime = math.inf
    if lifetime is None or not math.isfinite(lifetime) or lifetime < 0:
        raise TokenRequestFailed(
            f"auth entry '{entry.name}': the token endpoint {entry.token_url} answered an invalid "
            f"expires_in {str(expires_in)[:40]!r}",
            entry=entry.name,
        )
    return min(lifetime, MAX_LIFETIME) if lifetime > 0 else DEFAULT_LIFETIME


async def post_form(
    http: HttpClient, entry: OAuthEntry, form: dict[str, str], *, secrets: tuple[str, ...] = ()
) -> dict[str, Any]:
    """POST ``form`` to the entry's token endpoint; its JSON answer, or a typed error."""
    in_form = (form.get("refresh_token", ""), form.get("code", ""))
    hidden = tuple(s for s in (*entry.secrets(), *secrets, *in_form) if len(s) >= 4)
    from ..http.client import HttpRequest

    request = HttpRequest(
        "post",
        entry.token_url,
        {
            "authorization": basic_auth(entry),
            "content-type": "application/x-www-form-urlencoded",
            "accept": "application/json",
            "accept-encoding": "gzip, deflate",
            "user-agent": f"qlgate/{__version__}",
        },
        urlencode(form).encode(),
        TIMEOUT_MS,
    )
    where = f"auth entry '{entry.name}': the token endpoint {entry.token_url}"
    try:
        response = await http.send(request)
    except QlError as e:
        raise TokenRequestFailed(f"{where} cannot be reached: {_hide(e.message, hidden)}", entry=entry.name) from None
    try:
        answer = json.loads(response.body)
    except ValueError:
        answer = None
    if 200 <= response.status < 300 and isinstance(answer, dict):
        return answer
    if isinstance(answer, dict) and isinstance(answer.get("error"), str):
        code = answer["error"]
        description = answer.get("error_description")
        said = code + (f": {description}" if isinstance(description, str) and description else "")
        raise TokenRequestFailed(
            f"{where} refused to issue a token ({response.status}): {_hide(said[:300], hidden)}",
            status=401 if code in CREDENTIALS_REFUSED else 502,
            entry=entry.name,
            upstream_status=response.status,
        )
    what = "answered" if 200 <= response.status < 300 else f"answered {response.status}"
    raise TokenRequestFailed(
        f"{where} {what} with something that is not an OAuth2 token answer",
        entry=entry.name,
        upstream_status=response.status,
    )


def _hide(text: str, secrets: tuple[str, ...]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):
        for form in dict.fromkeys((secret, quote(secret, safe=""), quote(secret, safe="-_.!~*'()"))):
            text = text.replace(form, "****")
    return text
