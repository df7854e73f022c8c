"""The gateway's endpoints that run scripts: ad-hoc ``/q`` (a caller's script,
under the caller trust) and the named routes (the deployer's scripts)."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from ..engine.engine import Compiled, Engine
from ..engine.options import RunOptions
from ..errors import InvalidRequestBody, QlError, ScriptTooLong, UpstreamError, UpstreamTimeout
from ..http.codecs import CharsetError, decode_text, load_json
from ..http.xml import XmlError, xml_to_json
from ..request_info import RequestInfo
from ..routes import select_route
from ..timers import deadline
from ..trust import Trust
from ..values import MISSING
from ..workspace import Workspace
from .auth import CONSOLE
from .members import refuse_unknown_members
from .methods import no_route
from .ndjson import ndjson_response, value_rows, wants_ndjson
from .request import Request
from .response import Response
from .response import json_response as _json

# A script compiles in up to ~6 µs per character (the worst shapes that parse): short ones
# compile on the event loop (a millisecond or two at most, no thread hop), longer ones on
# the compile thread, with at most ~10 s of such work queued before new ones are turned away.
COMPILE_INLINE_CHARS = 256
MAX_CHARS_WAITING = 2_000_000


class Compiler(ThreadPoolExecutor):
    """The thread callers' scripts compile on, one at a time, and how many characters
    of scripts wait for it."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="qlgate-compile")
        self.waiting = 0


HIDDEN_HEADERS = {
    "connection",
    "host",
    "referer",
    "content-length",
    "accept",
    "accept-charset",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailers",
    "transfer-encoding",
    "upgrade",
    "authorization",
    "cookie",
}
RESERVED_QUERY = {"callback", "events", "format", "s", "diagnostics"}


class UnsupportedMediaType(QlError):
    status = 415


class MethodNotAllowed(QlError):
    status = 405


class GatewayBusy(QlError):
    status = 503


class NotAcceptable(QlError):
    status = 406


# what an upstream may answer that a route answers too: the item asked for is not there.
# A route is a public API, and its callers tell "no such item" (404) from "you asked
# wrongly" (400); /q keeps 400, the caller's script having named the upstream call itself.
NOT_THERE = frozenset((404, 410))


STATEMENT_NAME_CHARS = 100


def statement_name(text: str) -> str:
    """How a route's error names the statement that failed: its first line, cut short.
    A route is a public API; its caller needs to know which statement failed (with
    ``line``), not to read the deployer's script, which a one-statement route's whole
    select (columns, conditions, every line of it) nearly is."""
    first, _, rest = text.strip().partition("\n")
    first = " ".join(first.split())
    if len(first) > STATEMENT_NAME_CHARS:
        return first[: STATEMENT_NAME_CHARS - 1].rstrip() + "…"
    return first + (" …" if rest.strip() else "")


def error_response(error: QlError, workspace: Workspace, diagnostics: bool = False, *, route: bool = False) -> Response:
    secrets = workspace.config.secrets
    body = {k: v for k, v in error.to_dict().items() if k not in ("error",)}
    status = error.status if isinstance(error.status, int) and 400 <= error.status < 600 else 500
    if route:
        if isinstance(error, UpstreamError) and error.details.get("upstream_status") in NOT_THERE:
            status = body["status"] = error.details["upstream_status"]
        if isinstance(body.get("statement"), str):
            body["statement"] = statement_name(body["statement"])
    body = {"err": secrets.mask(error.message), **secrets.mask_value(body)}
    if diagnostics and error.diagnostics is not None:
        body["diagnostics"] = error.diagnostics.to_dict()
    if isinstance(error, UpstreamTimeout):
        status = 504
    headers = {}
    if status == 405 and error.details.get("allow"):
        headers["Allow"] = error.details["allow"]
    if error.details.get("retry_after"):
        headers["Retry-After"] = str(error.details["retry_after"])
    return _json(body, status=status, headers=headers or None)


def _multi(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            existing = out[key]
            out[key] = [*existing, value] if isinstance(existing, list) else [existing, value]
        else:
            out[key] = value
    return out


def request_info(request: Request, route_params: dict[str, str] | None = None) -> RequestInfo:
    """What a script may read of the incoming request. The caller's credentials
    (Authorization, Cookie) are not among them: they are the gateway's business."""
    query = {k: v for k, v in _multi(request.query.items()).items() if k not in RESERVED_QUERY}
    headers = {name: v for k, v in request.headers.items() if (name := k.lower()) not in HIDDEN_HEADERS}
    connection = {"remoteAddress": request.remote}
    return RequestInfo(query, headers, connection, route_params or {})


def body_text(raw: bytes, request: Request) -> str:
    """A request body as text in its declared charset (UTF-8 when none): a charset we
    do not decode is a 415, bytes that are not in it a 400."""
    try:
        return decode_text(raw, request.charset, errors="strict")
    except CharsetError as e:
        raise UnsupportedMediaType(str(e)) from None
    except UnicodeDecodeError as e:
        raise InvalidRequestBody(
            f"the request body is not valid {request.charset or 'utf-8'}: {e.reason} at byte {e.start}"
        ) from None


async def parse_body(request: Request) -> dict[str, Any]:
    """§14.2.3: JSON, XML and form bodies become variables; others stay raw text.
    Whatever the client sends, the answer is a value or a typed 4xx: the charset must
    be one we decode and JSON nests at most ``MAX_JSON_DEPTH`` deep (XML is bounded
    by lxml)."""
    if not request.body_exists:
        return {}
    raw = await request.read()
    ctype = (request.content_type or "").lower()
    try:
        if ctype.endswith("json"):
            value = load_json(body_text(raw, request))
            return value if isinstance(value, dict) else {"body": value}
        if ctype.endswith("xml"):
            return xml_to_json(body_text(raw, request))
        if ctype == "application/x-www-form-urlencoded":
            return _multi(parse_qsl(body_text(raw, request), keep_blank_values=True))
        return {"body": decode_text(raw, request.charset)}
    except CharsetError as e:
        raise UnsupportedMediaType(str(e)) from None
    except (ValueError, XmlError) as e:
        raise InvalidRequestBody(f"request body is not valid {ctype}: {e}") from None


def _wants_diagnostics(request: Request) -> bool:
    return request.query.get("diagnostics") in ("1", "true") or request.headers.get("x-qlgate-diagnostics") == "1"


async def _execute(
    request: Request,
    compiled: Compiled,
    context: dict[str, Any],
    info: RequestInfo,
    base_dir: Path | None,
    *,
    values_only: frozenset[str] = frozenset(),
    route: bool = False,
) -> Response:
    gateway = request.gateway
    workspace, policy = gateway.workspace, gateway.policy
    request_id = request.id
    diagnostics = _wants_diagnostics(request)
    rows = wants_ndjson(request)
    if rows and diagnostics:  # refused before the run: NDJSON lines are rows, with no room for the calls
        return error_response(
            NotAcceptable(
                'diagnostics come with the JSON form ({"result": …, "diagnostics": …}): '
                "ask for application/json, or leave diagnostics out of an NDJSON request"
            ),
            workspace,
        )
    request.writes = compiled.writes
    try:
        seconds = policy.request_timeout_ms / 1000
        async with deadline(seconds):  # one loop timer for every request's (``timers.py``)
            options = RunOptions(
                context=context,
                request=info,
                base_dir=base_dir,
                request_id=request_id,
                values_only=values_only,
                deadline=time.monotonic() + seconds,  # no back-off or Retry-After wait outlasts it
                shares_answers=True,  # the result is encoded, nothing else
                max_answer_bytes=policy.max_request_bytes,
                trace=request.trace,
            )
            result = await workspace.engine.run_compiled(compiled, options)
    except QlError as error:
        request.calls = error.diagnostics  # a failed run's calls count too (access log, metrics)
        return error_response(error, workspace, diagnostics, route=route)
    except TimeoutError:
        return _json(
            {"err": f"the request took longer than {policy.request_timeout_ms} ms (gateway.requestTimeoutMs)"},
            status=504,
        )
    request.calls = result.diagnostics
    value = result.value
    if diagnostics:
        value = {"result": None if value is MISSING else value, "diagnostics": result.diagnostics.to_dict()}
    headers = {"request-id": request_id, **result.headers}
    if rows:  # a large result a row at a time, encoded as the client reads (``ndjson.py``)
        return ndjson_response(value_rows(value), headers=headers, secrets=workspace.config.secrets)
    return _json(value, headers=headers, secrets=workspace.config.secrets)


# ------------------------------------------------------------------ /q


# what a JSON body of /q may hold: the script (``s``, or ``script`` as /jobs names it) and its variables
Q_MEMBERS = ("s", "script", "vars")


async def _script_of(request: Request) -> tuple[str | None, dict[str, Any]]:
    """The script of a /q request and its variables: ``?s=`` (GET or POST), or a POST
    body that is the script (text/plain), a form with ``s``, or JSON ``{"s": …,
    "vars": {…}}`` (the shape /jobs takes; any other member is a 400 naming it)."""
    script = request.query.get("s")
    if script is not None or request.method in ("GET", "HEAD") or not request.body_exists:
        return script, {}
    raw = await request.read()
    ctype = (request.content_type or "").lower()
    if ctype in ("", "text/plain", "application/octet-stream", "application/x-qlgate"):
        return body_text(raw, request), {}
    if ctype == "application/x-www-form-urlencoded":
        text = body_text(raw, request)
        script = dict(parse_qsl(text, keep_blank_values=True)).get("s")
        if script is None and text.strip():
            # what ``curl -d 'return 1;'`` sends: curl labels any --data as a form. Say how
            # to send it, rather than guess at a script from a body that may have lost its
            # ``+`` and ``%`` to form decoding.
            raise InvalidRequestBody(
                "the body is a form (application/x-www-form-urlencoded) with no field s: send the "
                "script as the form field s (curl --data-urlencode 's=…'), or as text "
                "(curl -H 'Content-Type: text/plain' --data-binary …)"
            )
        return script, {}
    if ctype == "application/json":
        try:
            body = load_json(body_text(raw, request))
        except ValueError as e:
            raise InvalidRequestBody(f"the body is not JSON: {e}") from None
        if not isinstance(body, dict):
            raise InvalidRequestBody('the JSON body of /q must be an object: {"s": …, "vars": {…}}')
        refuse_unknown_members(body, Q_MEMBERS, "/q")
        variables = body.get("vars") or {}
        if not isinstance(variables, dict):
            raise InvalidRequestBody('"vars" must be an object of the script\'s variables, {"name": value}')
        value = body.get("s", body.get("script"))
        return (value if isinstance(value, str) else None), variables
    raise UnsupportedMediaType(
        f"/q takes the script as text/plain, a form field 's' or JSON {{\"s\": …}}, not {ctype[:60]}"
    )


async def compile_caller_script(engine: Engine, compiler: Compiler, script: str, trust: Trust) -> Compiled:
    """Compile a caller's script under ``trust``. A long script not seen before is
    compiled on the gateway's compile thread, so the event loop keeps serving while
    it works; known scripts (and known failures) are a lookup."""
    if len(script) <= COMPILE_INLINE_CHARS or engine.cached(script, trust=trust):
        return engine.compile(script, trust=trust)
    if compiler.waiting + len(script) > MAX_CHARS_WAITING:
        raise GatewayBusy(
            f"{compiler.waiting:,} characters of new scripts are waiting to be compiled; try again shortly",
            retry_after=1,
        )
    compiler.waiting += len(script)
    try:
        return await asyncio.get_running_loop().run_in_executor(compiler, partial(engine.compile, script, trust=trust))
    finally:
        compiler.waiting -= len(script)


async def handle_q(request: Request) -> Response:
    gateway = request.gateway
    workspace, policy = gateway.workspace, gateway.policy
    try:
        script, variables = await _script_of(request)
        if not script:
            return _json(
                {"err": 'Missing query: give the script as ?s=…, a text body, a form field s or JSON {"s": …}'},
                status=400,
            )
        if len(script) > policy.max_script_length:
            raise ScriptTooLong(
                f"script is {len(script)} characters; the limit is {policy.max_script_length} (gateway.maxScriptLength)"
            )
        principal = request.principal
        trust = (
            workspace.callers if principal is not None and principal.may(CONSOLE) else workspace.callers_without_console
        )
        compiled = await compile_caller_script(workspace.engine, gateway.compiler, script, trust)
        if compiled.writes and request.method != "POST":
            raise MethodNotAllowed(
                "this script writes (an insert, update or delete, or a table of its own "
                f"that does not GET): send it with POST; {request.method} /q runs reads only",
                allow="POST",
            )
    except QlError as error:
        return error_response(error, workspace)
    return await _execute(request, compiled, variables, request_info(request), None)


# ------------------------------------------------------------------ routes


async def handle_route(request: Request) -> Response:
    gateway = request.gateway
    workspace, routes = gateway.workspace, gateway.routes
    path = request.path
    query = _multi(request.query.items())
    # HEAD is GET without the body (RFC 9110 §9.3.2)
    picked = select_route(routes, "GET" if request.method == "HEAD" else request.method, path, query)
    if picked is None:  # 405 with Allow, 400 (a required parameter missing) or 404
        return no_route(request, routes, query)
    route, bound = picked
    request.route = f"{route.method.upper()} {route.path}"  # a pattern: the metrics' bounded label
    try:
        context: dict[str, Any] = dict(await parse_body(request))
    except QlError as error:
        return error_response(error, workspace)
    body_members = set(context)
    context.update(route.defaults)
    context.update(bound)
    declared = set(route.defaults) | set(bound)
    # a query parameter the caller leaves out stays unset, as a variable no ``--var`` gives
    # in ``qlgate run``: a condition on it is dropped and the table's ``using defaults``
    # applies (a null would be sent as ``days=``, overriding the default)
    for key, (var, _) in route.query.items():
        declared.add(var)
        if key in query:
            context[var] = query[key]
    compiled = gateway.compiled_routes[id(route)]
    return await _execute(
        request,
        compiled,
        context,
        request_info(request, bound),
        Path(route.file).parent,
        values_only=frozenset(body_members - declared),
        route=True,
    )
