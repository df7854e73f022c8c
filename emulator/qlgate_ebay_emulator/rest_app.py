"""eBay's REST APIs on the emulator, at eBay's own paths (every host — api, apiz, apix,
apim — is the emulator's base): one handler matches a request against the route table
(``rest_routes.json``), records it, applies injected faults and latency (keyed by
operationId, e.g. ``search``, or ``api.operationId``, e.g. ``buy.browse.search``), checks
the bearer token and its scopes, and calls the operation's handler.

Answers, in eBay's error shape (``{"errors": [{"errorId", "domain", "category",
"message", "longMessage"}]}``):

* no, unknown or expired token: 401, errorId 1001 "Invalid access token" (domain OAuth);
* a token without one of the operation's scopes, or an application token on an
  operation that needs a user's: 403, errorId 1100 "Access denied";
* an operation of the digest the emulator does not emulate: 501, errorId 99501
  "Not emulated" (domain the API's), naming the operation;
* a path no operation has: 404, errorId 2002 "Resource not found" (405 for a known path
  with another method);
* an unexpected exception of a handler (a bug of the emulator): 500 in eBay's shape,
  the API's own internal errorId (``INTERNAL_IDS``), message "internal error in the
  emulator: <ExceptionType>", logged with its traceback — never a bare 500;
* an injected fault: ``http500`` a bare 500, ``ack`` a 500 in eBay's shape (errorId 2003
  "Internal error", category APPLICATION).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import web

from . import account, browse, fulfillment, inventory, taxonomy
from .oauth_server import OAuthServer
from .rest_common import INTERNAL_ID, INTERNAL_IDS, NOT_EMULATED_ID, Handler, RestCall, RestError, SellerData
from .rest_routes import Route, table
from .state import Marketplace


class FaultLike(Protocol):
    fail: str | None


Recorder = Callable[[web.Request, bytes, str], None]
Faulter = Callable[..., Awaitable[Any]]

log = logging.getLogger(__name__)

HANDLERS: dict[str, Handler] = {
    **browse.HANDLERS,
    **taxonomy.HANDLERS,
    **inventory.HANDLERS,
    **fulfillment.HANDLERS,
    **account.HANDLERS,
}


def _error(status: int, error_id: int, domain: str, message: str, long: str, category: str = "REQUEST") -> web.Response:
    body = RestError(status, error_id, message, long, category=category).body(domain)
    headers = {"WWW-Authenticate": 'Bearer realm="eBay", error="invalid_token"'} if status == 401 else None
    return web.json_response(body, status=status, headers=headers)


class RestApp:
    def __init__(self, market: Marketplace, oauth: OAuthServer, record: Recorder, fault: Faulter):
        self.market, self.oauth, self.record, self.fault = market, oauth, record, fault
        self.data = SellerData()

    def reset(self) -> None:
        self.data = SellerData()

    def _denied(self, route: Route, request: web.Request) -> tuple[web.Response | None, Any]:
        grant, why = self.oauth.bearer(request.headers.get("Authorization", ""))
        if grant is None:
            long = "Invalid access token. Check the value of the Authorization HTTP request header."
            if why == "expired":
                long = "The access token has expired. Request a new one (refresh it) and try again."
            return _error(401, 1001, "OAuth", "Invalid access token", long), None
        if (route.scopes and not grant.scopes & set(route.scopes)) or (route.user_token and not grant.user):
            return _error(
                403, 1100, "ACCESS", "Access denied", "Insufficient permissions to fulfill the request."
            ), None
        return None, grant

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        route, params, elsewhere = table().match(request.method, request.path)
        self.record(request, body, route.operation if route else "")
        if route is None:
            if elsewhere:
                return _error(405, 2002, "ACCESS", "Method not allowed", f"{request.method} is not allowed here.")
            return _error(404, 2002, "ACCESS", "Resource not found", f"No eBay REST resource at {request.path}.")
        fault = await self.fault(route.operation, route.call)
        if fault is not None and fault.fail == "http500":
            return web.Response(status=500, text="injected failure", content_type="text/plain")
        if fault is not None and fault.fail == "ack":
            return _error(500, 2003, route.domain, "Internal error", "Injected failure.", "APPLICATION")
        denied, grant = self._denied(route, request)
        if denied is not None:
            return denied
        handler = HANDLERS.get(route.call)
        if handler is None:
            return _error(
                501,
                NOT_EMULATED_ID,
                route.domain,
                "Not emulated",
                f"The qlgate eBay emulator does not emulate {route.call} ({route.method} {route.path}); "
                "use eBay's sandbox for it.",
                "APPLICATION",
            )
        base = f"{request.scheme}://{request.host}"
        call = RestCall(route, params, request.query, request.headers, body, grant, self.market, self.data, base)
        try:
            reply = handler(call)
        except RestError as e:
            return web.json_response(e.body(route.domain), status=e.status)
        except Exception as e:
            log.error("the emulator's %s failed on %s %s", route.call, request.method, request.path, exc_info=e)
            return _error(
                500,
                INTERNAL_IDS.get(route.domain, INTERNAL_ID),
                route.domain,
                f"internal error in the emulator: {type(e).__name__}",
                f"The qlgate eBay emulator failed on {route.call}; this is a bug of the emulator.",
                "APPLICATION",
            )
        if reply.body is None:
            return web.Response(status=reply.status, headers=reply.headers)
        return web.json_response(reply.body, status=reply.status, headers=reply.headers)
