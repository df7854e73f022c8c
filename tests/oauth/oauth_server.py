"""A small OAuth2 authorization server and a protected API on 127.0.0.1, for the
OAuth tests: it counts token requests, checks Basic auth, grants and scopes,
issues tokens that expire (on its own clock, or at once with ``expire_all``),
answers consent (``/authorize``) with a redirect carrying a code, and guards
``/api/*`` with eBay's 401 for a token it does not know or that has expired.
"""

from __future__ import annotations

import asyncio
import base64
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode

from aiohttp import web

CLIENT_ID = "test-client-id"
CLIENT_SECRET = "client-secret-s3cr3t-value"
REFRESH_TOKEN = "refresh-token-r3fr3sh-value"
SCOPES = ("https://api.test/scope/read", "https://api.test/scope/write")
EBAY_401 = {"errors": [{"errorId": 1001, "domain": "OAuth", "category": "REQUEST", "message": "Invalid access token"}]}


@dataclass
class Issued:
    value: str
    expires_at: float
    scope: str


@dataclass
class OAuthServer:
    lifetime: int = 7200
    delay: float = 0.0  # seconds the token endpoint takes (widens race windows)
    refusal: tuple[int, dict[str, Any]] | None = None  # the token endpoint's answer instead of a token
    echo_authorization: bool = False  # /api answers the Authorization header it got (a careless upstream)
    token_requests: list[dict[str, str]] = field(default_factory=list)
    api_calls: list[str] = field(default_factory=list)  # the bearer token of each /api call
    tokens: dict[str, Issued] = field(default_factory=dict)
    codes: dict[str, str] = field(default_factory=dict)  # code → redirect_uri
    refresh_tokens: set[str] = field(default_factory=lambda: {REFRESH_TOKEN})
    base: str = ""
    _runner: web.AppRunner | None = None

    async def start(self) -> OAuthServer:
        app = web.Application()
        app.router.add_post("/token", self._token)
        app.router.add_get("/authorize", self._authorize)
        app.router.add_route("*", "/api/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.base = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def expire_all(self) -> None:
        """Every token issued so far expires now (server side), as if hours had passed."""
        for issued in self.tokens.values():
            issued.expires_at = 0.0

    def entry(self, kind: str = "oauth2-client-credentials", **extra: Any) -> dict[str, Any]:
        """A config ``auth`` entry for this server."""
        entry: dict[str, Any] = {
            "type": kind,
            "tokenUrl": f"{self.base}/token",
            "clientId": CLIENT_ID,
            "clientSecret": CLIENT_SECRET,
            "scopes": list(SCOPES),
        }
        if kind == "oauth2-refresh-token":
            entry["refreshToken"] = REFRESH_TOKEN
        entry.update(extra)
        return {k: v for k, v in entry.items() if v is not None}

    # ------------------------------------------------------------------ handlers
    async def _token(self, request: web.Request) -> web.Response:
        form = {k: v[0] for k, v in parse_qs((await request.read()).decode()).items()}
        self.token_requests.append(form)
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.refusal is not None:
            return web.json_response(self.refusal[1], status=self.refusal[0])
        if request.content_type != "application/x-www-form-urlencoded":
            return _error(400, "invalid_request", "not a form")
        expected = "Basic " + base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
        if request.headers.get("Authorization") != expected:
            return _error(401, "invalid_client", "client authentication failed")
        grant = form.get("grant_type")
        scope = form.get("scope", "")
        if grant == "client_credentials":
            pass
        elif grant == "refresh_token":
            if form.get("refresh_token") not in self.refresh_tokens:
                return _error(400, "invalid_grant", "the refresh token is invalid or was issued to another client")
        elif grant == "authorization_code":
            redirect = self.codes.pop(form.get("code", ""), None)
            if redirect is None or redirect != form.get("redirect_uri"):
                return _error(400, "invalid_grant", "the code is invalid or its redirect_uri does not match")
            refresh = "refresh-" + secrets.token_urlsafe(16)
            self.refresh_tokens.add(refresh)
            token = self._issue(" ".join(SCOPES))
            return web.json_response(
                {
                    "access_token": token,
                    "expires_in": self.lifetime,
                    "refresh_token": refresh,
                    "refresh_token_expires_in": 47304000,
                    "token_type": "User Access Token",
                }
            )
        else:
            return _error(400, "unsupported_grant_type", f"grant type {grant!r}")
        if not set(scope.split()) <= set(SCOPES):
            return _error(400, "invalid_scope", "the requested scope is invalid, unknown, or malformed")
        kind = "Application Access Token" if grant == "client_credentials" else "User Access Token"
        return web.json_response({"access_token": self._issue(scope), "expires_in": self.lifetime, "token_type": kind})

    def _issue(self, scope: str) -> str:
        value = f"v^1.1#i^1#tok{len(self.tokens) + 1}#" + secrets.token_urlsafe(24)
        self.tokens[value] = Issued(value, time.time() + self.lifetime, scope)
        return value

    async def _authorize(self, request: web.Request) -> web.Response:
        q = request.query
        if q.get("client_id") != CLIENT_ID or q.get("response_type") != "code":
            return web.Response(status=400, text="bad client or response_type")
        if not set(q.get("scope", "").split()) <= set(SCOPES):
            return web.Response(status=400, text="bad scope")
        code = "v^1.1#i^1#f^0&code-" + secrets.token_urlsafe(12)  # eBay's codes hold # and ^
        redirect = q["redirect_uri"]
        self.codes[code] = redirect
        location = redirect + "?" + urlencode({"code": code, "state": q.get("state", ""), "expires_in": 299})
        raise web.HTTPFound(location)

    async def _api(self, request: web.Request) -> web.Response:
        """``/api/items``: the query echoed; ``/api/expire``: every token expires after
        this answer; ``/api/bad``: a 400 (echoing the Authorization header when asked); ``/api/denied``: a
        401 for a missing permission, not a bad token.
        The token comes as ``Authorization: Bearer`` or in eBay Trading's IAF header."""
        header = request.headers.get("Authorization", "")
        value = request.headers.get("X-EBAY-API-IAF-TOKEN") or header.removeprefix("Bearer ")
        self.api_calls.append(value)
        issued = self.tokens.get(value)
        if issued is None or issued.expires_at <= time.time():
            return web.json_response(EBAY_401, status=401)
        body: dict[str, Any] = {"ok": True, "path": request.path, "q": request.query.get("q")}
        if self.echo_authorization:
            body["youSent"] = header or value
        if request.path == "/api/expire":
            self.expire_all()
        if request.path == "/api/bad":
            return web.json_response(body, status=400)
        if request.path == "/api/denied":  # a 401 about something else than the token
            denied = {"errorId": 1100, "domain": "ACCESS", "category": "REQUEST", "message": "Access denied"}
            return web.json_response({"errors": [denied]}, status=401)
        return web.json_response(body)


def _error(status: int, code: str, description: str) -> web.Response:
    return web.Response(
        status=status,
        text=json.dumps({"error": code, "error_description": description}),
        content_type="application/json",
    )
