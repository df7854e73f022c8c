"""What every request passes through: a request id, the caller's key checked
against the endpoint's scope, one JSON error shape (bugs included), the HTML
and JSONP forms of answers, compression, and one access-log line."""

from __future__ import annotations

import gzip
import json
import logging
import re
import time
import zlib
from typing import Any

from aiohttp import web

from ..diagnostics import Diagnostics
from ..engine.engine import new_request_id
from ..errors import QlError
from ..values import dump_json
from . import pages
from .accesslog import AccessLog
from .auth import Gatekeeper, NotAuthenticated, Principal
from .policy import GatewayPolicy
from .responses import json_response

log = logging.getLogger("qlgate.server")
access_log = logging.getLogger("qlgate.access")

ACCESS_LOG = web.AppKey("access_log", AccessLog)  # qlgate serve's batched writer; else the logger
GATEKEEPER = web.AppKey("gatekeeper", Gatekeeper)
POLICY = web.AppKey("policy", GatewayPolicy)
REQUEST_ID = web.RequestKey("request_id", str)
PRINCIPAL = web.RequestKey("principal", Principal)
# the run of a script or route: its calls, counted in the access log (upstream_calls, cache_hits…)
UPSTREAM_CALLS = web.RequestKey("upstream_calls", Diagnostics)
WRITES = web.RequestKey("writes", bool)  # the script run wrote to a table: never JSONP
DESCRIBES = web.RequestKey("describes", bool)  # a describe endpoint's answer: may become an HTML page
COMPRESS_LEVEL = 6  # zlib's default: most of level 9's gain for a third of its time


@web.middleware
async def gateway_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    request_id = request.headers.get("request-id", "")
    request[REQUEST_ID] = request_id if _REQUEST_ID.match(request_id) else new_request_id()
    started = time.perf_counter()
    principal = None
    try:
        principal = request.app[GATEKEEPER].authorize(request)
        request[PRINCIPAL] = principal
        response = await handler(request)
    except QlError as error:  # 401/403 from the gatekeeper
        principal = getattr(error, "principal", None)
        response = json_response({"err": error.message}, status=error.status)
        if isinstance(error, NotAuthenticated):
            response.headers["WWW-Authenticate"] = 'Bearer realm="qlgate"'
    except web.HTTPException as http_error:  # aiohttp's own (a static file not found, a body too large…)
        if http_error.status < 400:
            raise
        response = _http_error(request, http_error)
    except Exception as error:  # a bug: logged, answered as JSON, the server keeps serving
        log.exception("internal error on %s %s", request.method, request.path)
        response = json_response({"err": f"internal error: {type(error).__name__}"}, status=500)
    response.headers.setdefault("request-id", request[REQUEST_ID])
    if isinstance(response, web.Response):
        response = _as_html_page(request, response)
        _jsonp(request, response)
        _compress(request, response)
    writer = request.app.get(ACCESS_LOG)
    if writer is not None or access_log.isEnabledFor(logging.INFO):
        line = dump_json(
            {
                "time": _timestamp(),
                "method": request.method,
                "path": request.path,
                "status": response.status,
                "ms": round((time.perf_counter() - started) * 1000, 2),
                "request_id": request[REQUEST_ID],
                "remote": request.remote,
                "key": principal.name if principal is not None else None,
                **_upstream(request.get(UPSTREAM_CALLS)),
            }
        )
        if writer is not None:
            writer.write(line)
        else:
            access_log.info(line)
    return response


def log_unparsed(app: web.Application, status: int, remote: str | None, problem: str) -> None:
    """The access-log line of a request aiohttp answered before the app saw it (one
    it could not parse, ``protocol.py``): no method, path or id to tell, ``error``
    says what was wrong."""
    writer = app.get(ACCESS_LOG)
    if writer is None and not access_log.isEnabledFor(logging.INFO):
        return
    line = dump_json(
        {
            "time": _timestamp(),
            "method": None,
            "path": None,
            "status": status,
            "ms": 0,
            "request_id": None,
            "remote": remote,
            "key": None,
            **_upstream(None),
            "error": problem,
        }
    )
    if writer is not None:
        writer.write(line)
    else:
        access_log.info(line)


def _http_error(request: web.Request, error: web.HTTPException) -> web.Response:
    """An error aiohttp raised, in the gateway's shape, with the headers that go
    with its status (``Allow`` for a 405, ``Retry-After``)."""
    status = error.status
    if status == 404:
        message = f"Cannot {request.method} {request.path}"
    elif status == 405:
        message = (
            f"{request.method} is not allowed on {request.path}; use {error.headers.get('Allow', 'another method')}"
        )
    elif status == 413:
        message = f"request body is over the {request.app[POLICY].max_body_bytes}-byte limit (gateway.maxBodyBytes)"
    else:  # a message of its own, or the status's reason
        message = error.text if error.text and error.text != f"{status}: {error.reason}" else error.reason
    kept = {name: error.headers[name] for name in ("Allow", "Retry-After") if name in error.headers}
    return json_response({"err": message}, status=status, headers=kept or None)


def _upstream(diagnostics: Diagnostics | None) -> dict[str, Any]:
    """The access log's account of a run's calls: ``upstream_calls`` sent upstream (not
    answered from the cache, not shared with another request's identical call in flight:
    ``cache_hits``, ``shared``), and the milliseconds calls waited before they were sent
    (back-off, ``Retry-After``) and queued for their API type's limits, when there were any."""
    if diagnostics is None or not diagnostics.calls:
        return {"upstream_calls": 0, "cache_hits": 0, "shared": 0}
    sent = hits = shared = 0
    waited = queued = 0.0
    for call in diagnostics.calls:  # one pass: this runs for every request
        source = call.source
        if source == "sent":
            sent += 1
        elif source == "cache":
            hits += 1
        elif source == "coalesced":
            shared += 1
        waited += call.waited or 0.0
        queued += call.queued or 0.0
    fields: dict[str, Any] = {"upstream_calls": sent, "cache_hits": hits, "shared": shared}
    if waited:
        fields["waited_ms"] = round(waited * 1000, 2)
    if queued:
        fields["queued_ms"] = round(queued * 1000, 2)
    return fields


_stamp: list = [0, ""]  # the second last formatted, and its text: one strftime a second


def _timestamp() -> str:
    """Now, as ``2026-11-24T00:12:03.123Z``."""
    now = time.time()
    second = int(now)
    if second != _stamp[0]:
        _stamp[0], _stamp[1] = second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    return f"{_stamp[1]}.{int(now * 1000) % 1000:03d}Z"


# an incoming request id is echoed and sent upstream: plain tokens only, so a caller
# cannot put line breaks or megabytes into our headers and logs
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}\Z")


def _as_html_page(request: web.Request, response: web.Response) -> web.Response:
    """Describe endpoints answer HTML when a browser asks (Accept: text/html). Only
    they: their ``info`` is HTML the engine rendered from a table's comment, while a
    route's answer (at /api/… say) is data a caller may have chosen."""
    if (
        not request.get(DESCRIBES)  # first: the cheapest, and false on the hot paths
        or response.status != 200
        or response.content_type != "application/json"
        or not pages.wants_html(request.headers.get("Accept", ""), request.query)
    ):
        return response
    title = request.query.get("name") or request.query.get("path") or request.path
    data = json.loads(response.text or "null")
    page = web.Response(text=pages.render(f"qlgate {title}", data), content_type="text/html")
    page.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
    for name in ("request-id", "Server", "X-Powered-By"):
        if name in response.headers:
            page.headers[name] = response.headers[name]
    return page


_CALLBACK = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\Z")


def _jsonp(request: web.Request, response: web.Response) -> None:
    """§14.4: ``?callback=fn`` wraps the JSON (errors too) as ``fn(<json>)`` — only where
    the deployer turned it on (``gateway.jsonp``: any web page can read a JSONP answer),
    only for GET, and never for a script that wrote to a table."""
    if not request.app[POLICY].jsonp:  # off unless the deployer turned it on
        return
    callback = request.query.get("callback")
    if (
        not callback
        or request.method != "GET"
        or request.get(WRITES)
        or not _CALLBACK.match(callback)
        or len(callback) > 128
    ):
        return
    body = response.body
    if response.content_type == "application/json" and isinstance(body, (bytes, bytearray)) and body:
        response.body = callback.encode() + b"(" + bytes(body) + b")"
        response.content_type = "application/javascript"


def _compress(request: web.Request, response: web.Response) -> None:
    """§14.4: gzip or deflate by Accept-Encoding (q values honoured, ``*`` = gzip)."""
    response.headers["Vary"] = "Accept-Encoding"
    body = response.body
    if not isinstance(body, (bytes, bytearray)) or len(body) < 1024:  # a payload streams as it is
        return
    accepted = request.headers.get("Accept-Encoding")
    if not accepted:  # most API clients ask for none
        return
    weights: dict[str, float] = {}
    for item in accepted.split(","):
        name, _, params = item.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if name:
            weights[name.strip().lower()] = q
    if weights.get("*", 0) > 0:
        weights.setdefault("gzip", weights["*"])
    choices = sorted(
        ((q, name) for name, q in weights.items() if name in ("gzip", "deflate") and q > 0),
        key=lambda c: (-c[0], c[1] != "gzip"),
    )
    if choices and "Content-Encoding" not in response.headers:
        # compressed here, not by aiohttp's enable_compression: the gateway's own front
        # sends the body as it is, and so does aiohttp when the header is set
        coding = choices[0][1]
        response.body = (
            gzip.compress(body, COMPRESS_LEVEL, mtime=0) if coding == "gzip" else zlib.compress(body, COMPRESS_LEVEL)
        )
        response.headers["Content-Encoding"] = coding
