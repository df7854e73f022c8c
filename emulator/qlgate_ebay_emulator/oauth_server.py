"""eBay's OAuth2 authorization server, emulated: the token endpoint
(``POST /identity/v1/oauth2/token``) and the consent page (``GET /oauth2/authorize``).

The token endpoint checks the application's Basic credentials against the applications
registered in the seed (``oauth.applications``), the grant type (client_credentials,
authorization_code, refresh_token) and the scopes — a subset of what the application
may have, and for an application token only the scopes of operations that take one.
It issues random access tokens that expire (``expires_in``, default 7200 s, settable on
the ``Sandbox`` and with ``PUT /_sandbox/oauth``) and refresh tokens bound to a user.
Errors are OAuth2's JSON (``error``, ``error_description``), as eBay answers them.

The consent page approves at once, for the application's seed user (or ``user=`` on the
URL, a seed user), and redirects to the redirect URI — the application's RuName, a URI
registered for it, or any loopback URI (``qlgate auth login``'s listener) — with ``code``
and ``state``. Emulator-only credentials: nothing here is valid on eBay.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

from aiohttp import web

from .endpoints import AUTHORIZE_PATH as AUTHORIZE_PATH
from .endpoints import DEFAULT_SCOPE as DEFAULT_SCOPE
from .endpoints import TOKEN_PATH as TOKEN_PATH
from .rest_routes import table
from .state import SEED, Marketplace

REFRESH_TTL = 47_304_000  # 18 months, as eBay's
CODE_TTL = 299


@dataclass
class Grant:
    """What a token or code stands for."""

    client_id: str
    user: str | None  # None: an application token
    scopes: frozenset[str]
    expires: float
    redirect_uri: str = ""

    @property
    def expired(self) -> bool:
        return time.time() >= self.expires


class OAuthError(Exception):
    def __init__(self, status: int, error: str, description: str):
        super().__init__(description)
        self.status, self.error, self.description = status, error, description

    def response(self) -> web.Response:
        headers = {"WWW-Authenticate": 'Basic realm="eBay OAuth"'} if self.status == 401 else None
        return web.json_response(
            {"error": self.error, "error_description": self.description}, status=self.status, headers=headers
        )


def new_token(prefix: str) -> str:
    return f"v^1.1#i^1#{prefix}#I^3#f^0#t^{secrets.token_urlsafe(48)}"


def application_scopes() -> frozenset[str]:
    """The scopes an application token may carry: those of operations that take one."""
    return frozenset(s for r in table().routes if r.grant == "client_credentials" for s in r.scopes)


class OAuthServer:
    def __init__(self, market: Marketplace, expires_in: int = 7200):
        self.market = market
        self.expires_in = expires_in
        self.tokens: dict[str, Grant] = {}  # access tokens
        self.refresh: dict[str, Grant] = {}
        self.codes: dict[str, Grant] = {}
        self.apps: dict[str, dict[str, Any]] = {}
        self.load()

    def load(self) -> None:
        """Applications and seed refresh tokens from the market's data (the built-in seed's
        when the data has none); access tokens already issued stay valid."""
        seed = getattr(self.market, "oauth_seed", None) or json.loads(SEED.read_text(encoding="utf-8")).get("oauth")
        seed = seed or {}
        self.apps = {a["clientId"]: a for a in seed.get("applications", [])}
        for r in seed.get("refreshTokens", []):
            self.refresh[r["token"]] = Grant(r["clientId"], r["user"], frozenset(r["scopes"]), float("inf"))
        for token, grant in self.tokens.items():
            self._share(token, grant)

    def _share(self, token: str, grant: Grant) -> None:
        """User access tokens are also Trading's ``X-EBAY-API-IAF-TOKEN`` (state.access_tokens)."""
        shared = getattr(self.market, "access_tokens", None)
        if grant.user and isinstance(shared, dict):
            shared[token] = (grant.user, grant.expires)

    def expire_all(self) -> int:
        for grant in self.tokens.values():
            grant.expires = 0.0
        for token, grant in self.tokens.items():
            self._share(token, grant)
        return len(self.tokens)

    # ------------------------------------------------------------------ checks
    def bearer(self, header: str) -> tuple[Grant | None, str]:
        """The grant of an ``Authorization: Bearer`` header, or None and why not."""
        scheme, _, token = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None, "missing"
        grant = self.tokens.get(token.strip())
        if grant is None:
            return None, "invalid"
        if grant.expired:
            return None, "expired"
        return grant, ""

    def _client(self, request: web.Request) -> dict[str, Any]:
        scheme, _, value = request.headers.get("Authorization", "").strip().partition(" ")
        try:
            client_id, _, secret = base64.b64decode(value.strip(), validate=True).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            client_id = secret = ""
        app = self.apps.get(client_id) if scheme.lower() == "basic" else None
        if app is None or not secrets.compare_digest(str(app.get("clientSecret", "")), secret):
            raise OAuthError(401, "invalid_client", "client authentication failed")
        return app

    def _scopes(self, asked: str | None, allowed: frozenset[str], default: frozenset[str]) -> frozenset[str]:
        scopes = frozenset(asked.split()) if asked and asked.strip() else default
        if not scopes or not scopes <= allowed:
            raise OAuthError(
                400,
                "invalid_scope",
                "The requested scope is invalid, unknown, malformed, or exceeds the scope granted to the client",
            )
        return scopes

    def _redirect_ok(self, app: dict[str, Any], uri: str) -> str | None:
        """The URL to redirect to for ``redirect_uri`` (a RuName, a registered URI, a loopback one)."""
        if uri and uri == app.get("ruName"):
            return str(app.get("redirectUri") or "")
        if uri in app.get("redirectUris", []):
            return uri
        parts = urlsplit(uri)
        if parts.scheme in ("http", "https") and parts.hostname in ("127.0.0.1", "localhost", "::1"):
            return uri
        return None

    # ------------------------------------------------------------------ endpoints
    def _issue(self, app: dict[str, Any], user: str | None, scopes: frozenset[str]) -> dict[str, Any]:
        token = new_token("p^1#r^0" if user else "p^3#r^0")
        grant = Grant(app["clientId"], user, scopes, time.time() + self.expires_in)
        self.tokens[token] = grant
        self._share(token, grant)
        return {
            "access_token": token,
            "expires_in": self.expires_in,
            "token_type": "User Access Token" if user else "Application Access Token",
        }

    def token(self, app: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        grant_type = form.get("grant_type", "")
        app_scopes = frozenset(app.get("scopes", []))
        if grant_type == "client_credentials":
            scopes = self._scopes(form.get("scope"), app_scopes & application_scopes(), frozenset({DEFAULT_SCOPE}))
            return self._issue(app, None, scopes)
        if grant_type == "refresh_token":
            held = self.refresh.get(form.get("refresh_token", ""))
            if held is None or held.client_id != app["clientId"] or held.expired:
                raise OAuthError(
                    400,
                    "invalid_grant",
                    "the provided authorization refresh token is invalid or was issued to another client",
                )
            return self._issue(app, held.user, self._scopes(form.get("scope"), held.scopes, held.scopes))
        if grant_type == "authorization_code":
            if not form.get("code"):
                raise OAuthError(400, "invalid_request", "request is missing a required parameter: code")
            code = self.codes.pop(form["code"], None)
            if code is None or code.client_id != app["clientId"] or code.expired:
                raise OAuthError(
                    400,
                    "invalid_grant",
                    "the provided authorization grant code is invalid or was issued to another client",
                )
            if form.get("redirect_uri", "") != code.redirect_uri:
                raise OAuthError(
                    400, "invalid_grant", "the redirect_uri does not match the one of the authorization request"
                )
            out = self._issue(app, code.user, code.scopes)
            refresh = new_token("p^1#r^1")
            self.refresh[refresh] = Grant(app["clientId"], code.user, code.scopes, time.time() + REFRESH_TTL)
            return {**out, "refresh_token": refresh, "refresh_token_expires_in": REFRESH_TTL}
        if not grant_type:
            raise OAuthError(400, "invalid_request", "request is missing a required parameter: grant_type")
        raise OAuthError(
            400, "unsupported_grant_type", "grant type in request is not supported by the authorization server"
        )

    async def token_handler(self, request: web.Request) -> web.Response:
        try:
            app = self._client(request)
            form = {k: str(v) for k, v in (await request.post()).items()}
            return web.json_response(self.token(app, form))
        except OAuthError as e:
            return e.response()

    async def authorize_handler(self, request: web.Request) -> web.Response:
        query = request.query
        app = self.apps.get(query.get("client_id", ""))
        if app is None:
            return OAuthError(400, "invalid_client", "unknown client_id").response()
        target = self._redirect_ok(app, query.get("redirect_uri", ""))
        if not target:
            return OAuthError(400, "invalid_request", "redirect_uri is not registered for this client").response()
        extra = {"state": query["state"]} if "state" in query else {}
        user = query.get("user") or app.get("user")
        try:
            if query.get("response_type") != "code":
                raise OAuthError(400, "unsupported_response_type", "response_type must be code")
            if not user or self.market.user(str(user)) is None:
                raise OAuthError(400, "access_denied", "no such user to consent")
            scopes = self._scopes(query.get("scope"), frozenset(app.get("scopes", [])), frozenset({DEFAULT_SCOPE}))
        except OAuthError as e:
            params = {"error": e.error, "error_description": e.description, **extra}
            raise web.HTTPFound(_with_query(target, params)) from None
        code = f"v^1.1#i^1#f^0#p^3#I^3#r^1#t^{secrets.token_urlsafe(32)}"
        self.codes[code] = Grant(app["clientId"], str(user), scopes, time.time() + CODE_TTL, query["redirect_uri"])
        raise web.HTTPFound(_with_query(target, {"code": code, **extra, "expires_in": str(CODE_TTL)}))


def _with_query(url: str, params: dict[str, str]) -> str:
    return url + ("&" if "?" in url else "?") + urlencode(params)
