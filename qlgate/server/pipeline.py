"""What every request passes through, in one function (``answer``): a request
id, the router, the caller's key checked against the endpoint's scope, one
JSON error shape (bugs included), the HTML and JSONP forms of answers,
compression, and one access-log line."""

from __future__ import annotations

import gzip
import json
import logging
import re
import time
import zlib

from ..engine.engine import new_request_id
from ..errors import QlError
from ..trace_context import TraceContext
from ..values import dump_json_bytes
from . import accesslog, ndjson, pages
from .auth import NotAuthenticated
from .methods import not_allowed, not_found
from .request import Request
from .response import Response, json_response
from .router import Handler, Match, Refused

log = logging.getLogger("qlgate.server")
COMPRESS_LEVEL = 6  # zlib's default: most of level 9's gain for a third of its time


async def answer(request: Request) -> Response:
    """The answer to ``request``, whatever happens on the way; its access-log line written."""
    started = time.perf_counter()
    gateway = request.gateway
    request_id = request.headers.get("request-id", "")
    request.id = request_id if _REQUEST_ID.match(request_id) else new_request_id()
    tracing = gateway.tracing
    if tracing is not None:  # traces on: the caller's trace continued, or one of its own
        request.trace = TraceContext.begin(request.headers.get("traceparent"), tracing.ratio)
    found = gateway.router.resolve(request.method, request.path)
    if not isinstance(found, Match):  # no endpoint's: the caller is still checked first (its scope: admin)
        found = Match(_refusal(found), "", {})
    try:
        response = await _handle(request, found)
    except Exception as error:  # a bug: logged, answered as JSON, the server keeps serving
        log.exception("internal error on %s %s", request.method, request.path)
        response = json_response({"err": f"internal error: {type(error).__name__}"}, status=500)
    response.headers.setdefault("request-id", request.id)
    if request.trace is not None and response.status >= 400:
        _with_trace_id(response, request.trace.trace_id)
    response = _as_html_page(request, response)
    _jsonp(request, response)
    _compress(request, response)
    accesslog.write(gateway, request, response.status, started)
    metrics = gateway.metrics
    if metrics is not None:  # counted at the same point, from what the access log reads
        metrics.request(
            request.endpoint,
            request.route,
            request.method,
            response.status,
            time.perf_counter() - started,
            len(request.body),
            len(response.body),
            request.calls,
        )
    if tracing is not None:  # built from the same records, at the same point
        tracing.finish(request, response.status, started)
    return response


def _with_trace_id(response: Response, trace_id: str) -> None:
    """An error answer names its trace (``trace_id``), so a caller's report leads an
    operator to the request's spans. Only errors, and only with traces on: the body is
    decoded and encoded once more."""
    if response.content_type != "application/json" or response.stream is not None or not response.body.startswith(b"{"):
        return
    try:
        data = json.loads(response.body)
    except ValueError:
        return
    if isinstance(data, dict) and "trace_id" not in data:
        data["trace_id"] = trace_id
        response.body = dump_json_bytes(data)


async def _handle(request: Request, found: Match) -> Response:
    request.endpoint, request.params = found.endpoint, found.params
    try:
        request.principal = request.gateway.gatekeeper.authorize(request)
    except QlError as error:  # 401/403 from the gatekeeper
        request.principal = getattr(error, "principal", None)
        response = json_response({"err": error.message}, status=error.status)
        if isinstance(error, NotAuthenticated):
            response.headers["WWW-Authenticate"] = 'Bearer realm="qlgate"'
        return response
    return await found.handler(request)


def _refusal(found: Refused | None) -> Handler:
    async def refuse(request: Request) -> Response:
        if found is None:
            return not_found(request.method, request.path)
        return not_allowed(request.method, request.path, set(found.allowed))

    return refuse


# an incoming request id is echoed and sent upstream: plain tokens only, so a caller
# cannot put line breaks or megabytes into our headers and logs
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}\Z")


def _as_html_page(request: Request, response: Response) -> Response:
    """Describe endpoints answer HTML when a browser asks (Accept: text/html). Only
    they: their ``info`` is HTML the engine rendered from a table's comment, while a
    route's answer (at /api/… say) is data a caller may have chosen."""
    if (
        not request.describes  # first: the cheapest, and false on the hot paths
        or response.status != 200
        or response.content_type != "application/json"
        or not pages.wants_html(request.headers.get("Accept", ""), request.query)
    ):
        return response
    title = request.query.get("name") or request.query.get("path") or request.path
    data = json.loads(response.body or b"null")
    page = Response(pages.render(f"qlgate {title}", data).encode(), content_type="text/html; charset=utf-8")
    page.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
    for name in ("request-id", "Server", "X-Powered-By"):
        if name in response.headers:
            page.headers[name] = response.headers[name]
    return page


_CALLBACK = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\Z")


def _jsonp(request: Request, response: Response) -> None:
    """§14.4: ``?callback=fn`` wraps the JSON (errors too) as ``fn(<json>)`` — only where
    the deployer turned it on (``gateway.jsonp``: any web page can read a JSONP answer),
    only for GET, and never for a script that wrote to a table."""
    if not request.gateway.policy.jsonp:  # off unless the deployer turned it on
        return
    callback = request.query.get("callback")
    if (
        not callback
        or request.method != "GET"
        or request.writes
        or not _CALLBACK.match(callback)
        or len(callback) > 128
    ):
        return
    if response.content_type == "application/json" and response.body:
        response.body = callback.encode() + b"(" + response.body + b")"
        response.content_type = "application/javascript; charset=utf-8"


def _compress(request: Request, response: Response) -> None:
    """§14.4: gzip or deflate by Accept-Encoding (q values honoured, ``*`` = gzip)."""
    response.headers["Vary"] = "Accept-Encoding"
    body = response.body
    if len(body) < 1024 and response.stream is None:
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
        coding = choices[0][1]
        if response.stream is not None:  # an NDJSON result: compressed a chunk at a time
            response.stream = ndjson.compressed(response.stream, coding)
            response.headers["Content-Encoding"] = coding
            return
        response.body = (
            gzip.compress(body, COMPRESS_LEVEL, mtime=0) if coding == "gzip" else zlib.compress(body, COMPRESS_LEVEL)
        )
        response.headers["Content-Encoding"] = coding
