"""How the gateway's app is served: each connection starts on the gateway's own
front (``front.py``), which answers ``/q`` and the routes itself and hands every
other request's connection to aiohttp; and, for those, aiohttp's protocol-level
errors in the gateway's error shape.

Those errors are requests aiohttp cannot parse or that are over its size limits,
an invalid method, chunked framing gone wrong. aiohttp answers them itself, before
any middleware, as ``text/plain`` ("400, message: …") and logs each with a
traceback at ERROR; here they answer ``{"err": …}`` as JSON like every other
error, with a line in the access log like any request (``error`` says what was
wrong), and without aiohttp's ERROR record and traceback (a client's malformed
request is the client's problem, and on a public port it is constant noise).

aiohttp has no setting for either: its ``Server`` makes the protocol of each
connection, and ``RequestHandler.handle_error`` writes that answer. ``install``
makes the app's server (``Application._make_handler``, where ``AppRunner`` gets
it — ``qlgate serve`` and ``TestServer`` alike) a ``GatewayServer``, whose
connections are the front's, and whose aiohttp connections use
``JsonErrorHandler``. Its shutdown drains both. Only this app's server changes:
the eBay emulator and any other aiohttp app in the process keep aiohttp's own.
Should aiohttp drop ``_make_handler``, ``install`` does nothing: aiohttp serves
everything, with its text answers (``tests/server/test_front.py`` and
``test_manners.py`` then fail).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest
from aiohttp.web_server import Server

from .front import Front, FrontProtocol
from .middleware import log_unparsed
from .responses import json_response

MOST_CHARS = 200  # of aiohttp's message quoted back


class JsonErrorHandler(RequestHandler):
    """aiohttp's protocol handler, answering the errors it finds itself in the gateway's shape."""

    __slots__ = ()

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if status >= 500:
            self.log_exception("Error handling request from %s", request.remote, exc_info=exc)
        else:
            self.log_debug("Malformed request from %s: %s", request.remote, message or exc)
        if request.writer.output_size > 0:  # as aiohttp: part of an answer went out, the connection is broken
            raise ConnectionError("Response is sent already, cannot send another response with the error message")
        problem = describe(status, exc, message)
        app = getattr(self._manager, "gateway_app", None)
        if app is not None:
            log_unparsed(app, status, request.remote, problem)
        response = json_response({"err": problem}, status=status)
        response.force_close()
        return response


def describe(status: int, exc: BaseException | None, message: str | None) -> str:
    """The error in words. Of aiohttp's message only the words that name the
    problem: the rest quotes the request's bytes (a header's value, a credential
    perhaps), which is not repeated."""
    if status == 504:
        return "the request took too long"
    if status >= 500:
        return "internal error"
    if type(exc).__name__ == "LineTooLong":
        return "the request is malformed: its request line or a header is over the size limit"
    text = (message or "").strip()
    first = _QUOTED.split(text.splitlines()[0])[0].strip().rstrip(":").strip() if text else ""
    if len(first) > MOST_CHARS:
        first = first[:MOST_CHARS] + "…"
    return f"the request is malformed: {first}" if first else "the request is malformed"


# where aiohttp's message starts quoting the request: b'…', bytearray(b'…'), or a quoted line
_QUOTED = re.compile(r"""[:\s]*(?:b'|b"|bytearray\(|'|")""")


class GatewayServer(Server):
    """aiohttp's server for the gateway's app: each connection starts on the
    gateway's own front (``front.py``), which serves ``/q`` and the routes itself and
    hands the rest to ``JsonErrorHandler``, aiohttp's handler with the error shape."""

    gateway_app: web.Application
    _front: Front | None = None

    @property
    def front(self) -> Front:
        if self._front is None:
            self._front = Front(self.gateway_app, self._aiohttp_protocol)
        return self._front

    def __call__(self) -> asyncio.Protocol:  # type: ignore[override]
        return FrontProtocol(self.front)

    def _aiohttp_protocol(self) -> RequestHandler:
        try:
            return JsonErrorHandler(self, loop=self._loop, **self._kwargs)
        except Exception:  # noqa: BLE001 - aiohttp's internals moved (private names): its own handler, plain-text errors
            return super().__call__()

    def pre_shutdown(self) -> None:
        self.front.pre_shutdown()
        super().pre_shutdown()

    async def shutdown(self, timeout: float | None = None) -> None:
        await asyncio.gather(self.front.shutdown(timeout), super().shutdown(timeout))


def install(app: web.Application) -> None:
    """Serve ``app`` through the gateway's front, and answer aiohttp's protocol-level
    errors in the gateway's shape (module docstring)."""
    make = getattr(app, "_make_handler", None)
    if make is None:
        return

    def make_handler(*args: Any, **kwargs: Any) -> Server:
        server = make(*args, **kwargs)
        if type(server) is Server:
            server.__class__ = GatewayServer
            server.gateway_app = app  # type: ignore[attr-defined]  # the access log its handlers write to
        return server

    # object.__setattr__: past Application.__setattr__'s warning in aiohttp's debug mode
    object.__setattr__(app, "_make_handler", make_handler)
