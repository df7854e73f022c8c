"""The eBay emulator as an aiohttp app, at the paths of the real services:

    POST /services/search/FindingService/v1   (and GET with OPERATION-NAME=…)
    GET  /shopping?callname=…
    POST /ws/api.dll

plus control endpoints for tests and benchmarks:

    GET    /_sandbox/requests     every request received (method, path, query, headers, body)
    DELETE /_sandbox/requests     forget them
    POST   /_sandbox/reset        back to the seed data
    PUT    /_sandbox/faults       {"<call or *>": {"latency_ms": 50, "fail": "http500"|"ack", "times": 1}}
    POST   /_sandbox/purchase     {"itemId", "buyer", "quantity"}: a purchase (an order, as Fulfillment sees it)
    PUT    /_sandbox/oauth        {"expires_in": 7200}: the lifetime of access tokens issued from now on
    POST   /_sandbox/oauth/expire every access token issued so far expires now

and eBay's REST APIs (rest_app.py) with their OAuth2 server (oauth_server.py):

    POST /identity/v1/oauth2/token, GET /oauth2/authorize
    /buy/…, /sell/…, /commerce/…, /developer/…   every operation of the digest of eBay's contracts

The control endpoints answer only a caller holding the emulator's control token
(``Authorization: Bearer <token>`` or ``X-Sandbox-Token: <token>``): the gateway's
ad-hoc scripts may reach the emulator's host, and must not read other callers'
requests (tokens, bodies) or reset the marketplace. The token is random per
``Sandbox`` unless given, and is never part of ``emulator_config``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from aiohttp import web

from .endpoints import AUTHORIZE_PATH, FINDING_PATH, SHOPPING_PATH, TOKEN_PATH, TRADING_PATH
from .endpoints import emulator_config as emulator_config  # where it always was
from .endpoints import rest_auth_config as rest_auth_config
from .finding import Finding
from .oauth_server import OAuthServer
from .rest_app import RestApp
from .shopping import Shopping
from .state import Marketplace, User
from .trading import Trading

MAX_RECORDED = 10_000
SANDBOX: web.AppKey[Sandbox] = web.AppKey("sandbox")
TOKEN_HEADER = "X-Sandbox-Token"


def new_control_token() -> str:
    return secrets.token_urlsafe(32)


def presented_tokens(request: web.Request) -> list[str]:
    """The control tokens a request carries: ``Authorization: Bearer …`` and ``X-Sandbox-Token``."""
    tokens = []
    scheme, _, value = request.headers.get("Authorization", "").strip().partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        tokens.append(value.strip())
    header = request.headers.get(TOKEN_HEADER, "").strip()
    if header:
        tokens.append(header)
    return tokens


def token_matches(presented: str, expected: str) -> bool:
    return hmac.compare_digest(presented.encode("utf-8", "replace"), expected.encode("utf-8", "replace"))


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: str
    call: str = ""


@dataclass
class Fault:
    latency_ms: int = 0
    fail: str | None = None  # "http500" | "ack" | None
    times: int | None = None  # None: every time


@dataclass
class Sandbox:
    market: Marketplace = field(default_factory=Marketplace)
    latency_ms: int = 0
    requests: list[Recorded] = field(default_factory=list)
    faults: dict[str, Fault] = field(default_factory=dict)
    control_token: str = field(default_factory=new_control_token, repr=False)
    token_ttl: int = 7200  # expires_in of the OAuth access tokens it issues

    def __post_init__(self) -> None:
        if not self.control_token:
            raise ValueError("the emulator's control token must not be empty")
        self.finding = Finding(self.market)
        self.shopping = Shopping(self.market)
        self.trading = Trading(self.market)
        self.oauth = OAuthServer(self.market, self.token_ttl)
        self.rest = RestApp(self.market, self.oauth, self._record, self._fault)

    async def _fault(self, *calls: str) -> Fault | None:
        """The fault injected for a call (by any of its names, else ``*``), after its latency."""
        fault = next((self.faults[c] for c in calls if c in self.faults), None) or self.faults.get("*")
        delay = self.latency_ms + (fault.latency_ms if fault else 0)
        if delay:
            await asyncio.sleep(delay / 1000)
        if fault is None or fault.fail is None:
            return None
        if fault.times is not None:
            if fault.times <= 0:
                return None
            fault.times -= 1
        return fault

    def _record(self, request: web.Request, body: bytes, call: str) -> None:
        if len(self.requests) >= MAX_RECORDED:
            del self.requests[: MAX_RECORDED // 10]
        self.requests.append(
            Recorded(
                request.method,
                request.path,
                dict(request.query),
                {k.lower(): v for k, v in request.headers.items()},
                body.decode("utf-8", "replace"),
                call,
            )
        )

    async def finding_handler(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k.lower(): v for k, v in request.headers.items()}
        operation = headers.get("x-ebay-soa-operation-name") or request.query.get("OPERATION-NAME", "")
        self._record(request, body, operation)
        fault = await self._fault(operation)
        if fault and fault.fail == "http500":
            return web.Response(status=500, text="injected failure", content_type="text/plain")
        _, status, ctype, text = self.finding.handle(request.method, headers, request.query, body)
        if fault and fault.fail == "ack":
            text = text.replace("<ack>Success</ack>", "<ack>Failure</ack>")
        return web.Response(status=status, text=text, headers={"Content-Type": ctype})

    async def shopping_handler(self, request: web.Request) -> web.Response:
        body = await request.read()
        self._record(request, body, request.query.get("callname", ""))
        fault = await self._fault(request.query.get("callname", ""))
        if fault and fault.fail == "http500":
            return web.Response(status=500, text="injected failure", content_type="text/plain")
        _, ctype, text = self.shopping.handle(request.query)
        if fault and fault.fail == "ack":
            text = text.replace('"Ack": "Success"', '"Ack": "Failure"').replace(
                "<Ack>Success</Ack>", "<Ack>Failure</Ack>"
            )
        return web.Response(text=text, headers={"Content-Type": ctype})

    async def trading_handler(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k.lower(): v for k, v in request.headers.items()}
        call = headers.get("x-ebay-api-call-name", "")
        self._record(request, body, call)
        fault = await self._fault(call)
        if fault and fault.fail == "http500":
            return web.Response(status=500, text="injected failure", content_type="text/plain")
        _, text = self.trading.handle(headers, body)
        if fault and fault.fail == "ack":
            text = text.replace("<Ack>Success</Ack>", "<Ack>Failure</Ack>")
        return web.Response(text=text, headers={"Content-Type": "text/xml;charset=UTF-8"})

    # ---------------------------------------------------------------- control
    def _guarded(
        self, handler: Callable[[web.Request], Awaitable[web.Response]]
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        """``handler`` for callers holding the control token only: 401 without one, 403 with a wrong one."""

        async def guarded(request: web.Request) -> web.Response:
            tokens = presented_tokens(request)
            if not tokens:
                return web.json_response(
                    {
                        "error": f"the emulator's control endpoints need its control token "
                        f"(Authorization: Bearer <token> or {TOKEN_HEADER})"
                    },
                    status=401,
                    headers={"WWW-Authenticate": 'Bearer realm="qlgate-sandbox"'},
                )
            # every presented token is compared, so the time taken does not tell which one failed
            if not [t for t in tokens if token_matches(t, self.control_token)]:
                return web.json_response({"error": "wrong control token"}, status=403)
            return await handler(request)

        return guarded

    async def list_requests(self, request: web.Request) -> web.Response:
        return web.json_response([asdict(r) for r in self.requests])

    async def clear_requests(self, request: web.Request) -> web.Response:
        self.requests.clear()
        return web.json_response({"cleared": True})

    async def token_handler(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        self._record(request, body, "token")
        fault = await self._fault("token", "oauth.token")
        if fault and fault.fail in ("http500", "ack"):
            return web.json_response({"error": "server_error", "error_description": "injected failure"}, status=500)
        return await self.oauth.token_handler(request)

    async def authorize_handler(self, request: web.Request) -> web.StreamResponse:
        self._record(request, b"", "authorize")
        await self._fault("authorize", "oauth.authorize")
        return await self.oauth.authorize_handler(request)

    async def purchase(self, request: web.Request) -> web.Response:
        try:
            spec = await request.json()
            item = self.market.items[str(spec["itemId"])]
            buyer, quantity = str(spec.get("buyer") or "testuser_bountifulbuyer"), int(spec.get("quantity") or 1)
        except (ValueError, TypeError, KeyError) as e:
            return web.json_response({"error": f"bad purchase: {e!r}"}, status=400)
        if not item.active or quantity < 1 or quantity > item.quantity - item.quantity_sold:
            return web.json_response({"error": f"item {item.item_id} cannot sell {quantity} now"}, status=409)
        self.market.users.setdefault(buyer, User(buyer))
        order = self.market.buy(item, buyer, quantity)
        return web.json_response(
            {"orderId": order.order_id, "lineItemIds": [li.line_item_id for li in order.line_items]}
        )

    async def set_oauth(self, request: web.Request) -> web.Response:
        try:
            self.oauth.expires_in = self.token_ttl = int((await request.json())["expires_in"])
        except (ValueError, TypeError, KeyError) as e:
            return web.json_response({"error": f"bad oauth settings: {e!r}"}, status=400)
        return web.json_response({"expires_in": self.oauth.expires_in})

    async def expire_tokens(self, request: web.Request) -> web.Response:
        return web.json_response({"expired": self.oauth.expire_all()})

    async def reset(self, request: web.Request) -> web.Response:
        self.market.reset()
        self.rest.reset()
        self.oauth.load()
        self.requests.clear()
        self.faults.clear()
        return web.json_response({"reset": True})

    async def set_faults(self, request: web.Request) -> web.Response:
        try:
            spec = await request.json()
            self.faults = {call: Fault(**(value or {})) for call, value in spec.items()}
        except (ValueError, TypeError) as e:
            return web.json_response({"error": f"bad fault spec: {e}"}, status=400)
        return web.json_response({call: asdict(f) for call, f in self.faults.items()})

    def app(self) -> web.Application:
        app = web.Application(client_max_size=8 * 1024 * 1024)
        app[SANDBOX] = self
        app.router.add_route("*", FINDING_PATH, self.finding_handler)
        app.router.add_get(SHOPPING_PATH, self.shopping_handler)
        app.router.add_post(TRADING_PATH, self.trading_handler)
        app.router.add_get("/_sandbox/requests", self._guarded(self.list_requests))
        app.router.add_delete("/_sandbox/requests", self._guarded(self.clear_requests))
        app.router.add_post("/_sandbox/reset", self._guarded(self.reset))
        app.router.add_put("/_sandbox/faults", self._guarded(self.set_faults))
        app.router.add_post("/_sandbox/purchase", self._guarded(self.purchase))
        app.router.add_put("/_sandbox/oauth", self._guarded(self.set_oauth))
        app.router.add_post("/_sandbox/oauth/expire", self._guarded(self.expire_tokens))
        app.router.add_post(TOKEN_PATH, self.token_handler)
        app.router.add_get(AUTHORIZE_PATH, self.authorize_handler)
        app.router.add_route("*", "/{api:(?:buy|sell|commerce|developer)/.*}", self.rest.handle)
        return app


class RunningSandbox:
    """An emulator listening on 127.0.0.1 in the current event loop. ``control_token``
    (default: the sandbox's own, random) opens its ``/_sandbox/*`` endpoints; it is
    not in ``config()``, which scripts can read."""

    def __init__(self, sandbox: Sandbox | None = None, control_token: str | None = None):
        self.sandbox = sandbox or Sandbox()
        if control_token is not None:
            if not control_token:
                raise ValueError("the emulator's control token must not be empty")
            self.sandbox.control_token = control_token
        self._runner: web.AppRunner | None = None
        self.base = ""

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> RunningSandbox:
        self._runner = web.AppRunner(self.sandbox.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.base = f"http://{host}:{self._runner.addresses[0][1]}"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def config(self) -> dict[str, Any]:
        return emulator_config(self.base)

    @property
    def control_token(self) -> str:
        return self.sandbox.control_token

    def control_headers(self) -> dict[str, str]:
        """The headers that open the ``/_sandbox/*`` endpoints (for tests and benchmarks)."""
        return {"Authorization": f"Bearer {self.control_token}"}


def load_data(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)
