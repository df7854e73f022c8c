"""One statement against one table mapping (spec §10): parameters → validation
→ URIs → per request: headers, body, send → decode → status → patches →
result set → projection → merge.

The executor hands a *table call* here; requests are described, sent through
the run's client (which coalesces identical reads and records diagnostics),
and only JSON comes back.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import TYPE_CHECKING, Any, Callable

from ..errors import (AuthRejected, FanOutLimit, InvalidParameter, QlError, TransformError, UnsupportedVerb,
                      UpstreamError)
from ..http.client import HttpRequest, HttpResponse
from ..http.codecs import CharsetError, TransformFailure, decode_text, parse_media_type, transform
from ..lang.paths import resultset as select_resultset
from ..lang.templates import Template, interpolate, interpolate_text
from ..tables.bodies import render_mustache
from ..tables.model import UNSAFE_IN_HEADER, Table
from ..tables.params import ParamView, nest_dotted
from ..trust import connection_header
from ..tables.patches import HookContext, MutableURI
from ..tables.uri_template import expand, token_value
from ..values import MISSING, to_text
from . import relational
from .window import SendWindow
from .._version import __version__

if TYPE_CHECKING:
    from .run import Run

DEFAULT_ACCEPT = "application/json,application/xml,text/csv"


def _resolve_default(raw: Any, view: ParamView) -> Any:
    if isinstance(raw, Template):
        return interpolate(raw, view.lookup_below_defaults)
    return raw


class _Request:
    """Everything about one outgoing request of a statement."""

    __slots__ = ("uri", "view", "headers", "body", "body_type")

    def __init__(self, uri: MutableURI, view: ParamView):
        self.uri, self.view = uri, view
        self.headers: dict[str, str] = {}
        self.body: str | None = None
        self.body_type: str | None = None


class TableCall:
    def __init__(self, run: "Run", table: Table, kind: str, statement: Any, params: dict[str, Any], *,
                 limit: int | None = None, offset: int | None = None, opaque: Any = MISSING,
                 project: Callable[[Any], Any] | None = None, timeout_ms: int | None = None):
        mapping = table.mappings.get(kind)
        if mapping is None:
            raise UnsupportedVerb(f"Table {table.name} does not support {kind}")
        if table.connector not in (None, "http") or mapping.method == "do":
            raise UnsupportedVerb(f"Table {table.name} uses the connector '{table.connector or mapping.operation}', "
                                  "which is not installed; only HTTP tables run")
        self.run, self.table, self.mapping, self.kind = run, table, mapping, kind
        self.statement = statement
        self.params = dict(params)
        for name, value in (("limit", limit), ("offset", offset)):
            if value is not None:
                self.params[mapping.aliases.get(name, name)] = value
        self.limit, self.offset = limit, offset
        self.opaque = opaque
        self.project = project
        self.timeout_ms = timeout_ms or run.settings.timeout_for(table.name)
        self.patch = mapping.patch
        self.config = table.config if table.config is not None else run.config.data
        self._occurrences: dict[tuple, int] = {}
        self._window: SendWindow | None = None  # bounds requests in flight, not local work

    # ------------------------------------------------------------------ helpers
    def _ctx(self, view: ParamView, **extra: Any) -> HookContext:
        st = self.statement
        return HookContext(table=self.mapping, statement=_StatementInfo(st, self.limit, self.offset),
                           params=view, config=self.config, vars=self.run.readonly_vars(),
                           request=self.run.request, log=self._log, **extra)

    def _log(self, level: str, message: str) -> None:
        """``ctx.log``: warnings and errors join the run's warnings."""
        if level in ("warn", "warning", "error"):
            self.run.warn(message)

    async def _hook(self, hook: str, view: ParamView, **extra: Any) -> Any:
        if self.patch is None or not self.patch.has(hook):
            return None
        return await self.patch.call(hook, self._ctx(view, **extra), table=self.table.name)

    def _view(self) -> ParamView:
        req = self.run.request
        from_request = self.run.settings.params_from_request and req is not None
        return ParamView(statement=self.params, variables=self.run.vars,
                         query=req.query if from_request else None,
                         headers=req.headers if from_request else None,
                         connection=req.connection if from_request else None,
                         defaults=self.mapping.defaults, resolve_default=_resolve_default,
                         config=self.config)

    # ------------------------------------------------------------------ the call
    async def execute(self) -> Any:
        view = self._view()
        await self._validate(view)
        try:
            expanded = expand(self.mapping.uri, view, table=self.table.name)
        except UnicodeEncodeError as e:  # percent-encoding needs UTF-8, which a lone surrogate has not
            raise _not_unicode(self.table.name, "URI", e) from None
        requests: list[tuple[str, dict[str, Any]]] = []
        for item in expanded:
            if self.patch is not None and self.patch.has("patch_uri"):
                forked = view.fork(item.binding)
                result = await self._hook("patch_uri", forked, uri=MutableURI(item.uri))
                view.private.update(forked.private)
                for uri in (result if isinstance(result, list) else [result] if result is not None else []):
                    requests.append((str(uri), item.binding))
            else:
                requests.append((item.uri, item.binding))
        if not requests:
            return {}
        block = self.mapping.block_merge
        body = self.mapping.body
        if body is not None and body.foreach and self.mapping.sends_body:
            values = view.lookup(body.foreach)
            if isinstance(values, list):
                first_uri, binding = requests[0]
                requests = [(first_uri, {**binding, body.foreach: v}) for v in values]
                block = True
        settings = self.run.settings
        if len(requests) > settings.max_fan_out:
            raise FanOutLimit(f"statement fans out into {len(requests)} requests; the limit is "
                              f"{settings.max_fan_out} (config maxFanOut)")
        if len(requests) == 1:
            uri, binding = requests[0]
            return await self._one(uri, view.fork(binding) if binding else view)
        self._window = SendWindow(settings.max_nested_requests)
        outcomes = await asyncio.gather(*(self._one(u, view.fork(b)) for u, b in requests), return_exceptions=True)
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        for failure in failures:
            if not isinstance(failure, (QlError, asyncio.CancelledError)):
                raise failure
        if failures and len(failures) == len(outcomes):
            raise failures[0]
        if failures:
            self.run.warn(f"{len(failures)} of {len(outcomes)} requests of {self.table.name} failed; "
                          f"first: {failures[0]}")
        results = [o for o in outcomes if not isinstance(o, BaseException)]
        return relational.merge_results(results, block)

    async def _validate(self, view: ParamView) -> None:
        if self.patch is None or not self.patch.has("validate_param"):
            return
        names = list(dict.fromkeys(list(self.params) + view.default_names()))
        for token in self.mapping.uri.tokens:
            name, value = token_value(token, view)
            if name and value is not MISSING and name not in names:
                names.append(name)
        for name in names:
            value = view.lookup(name)
            if value is MISSING:
                continue
            ok = await self._hook("validate_param", view, name=name, value=value)
            if not ok:
                raise InvalidParameter(f'Value of {name} "{to_text(value)}" is not valid', param=name)

    # ------------------------------------------------------------------ one request
    async def _one(self, uri_text: str, view: ParamView) -> Any:
        window = self._window
        outgoing, occurrence = await self._prepare(uri_text, view)
        coalesce = self.kind == "select"
        if window is None:
            response = await self.run.send(outgoing, coalesce=coalesce, table=self.table.name, occurrence=occurrence)
        else:
            async with window:
                response = await self.run.send(outgoing, coalesce=coalesce, table=self.table.name,
                                               occurrence=occurrence)
            await window.sends_first()
        return await self._response(response, view)

    async def _prepare(self, uri_text: str, view: ParamView) -> tuple[HttpRequest, int]:
        request = _Request(MutableURI(uri_text), view)
        mapping = self.mapping
        if mapping.auth is not None:
            ok = await mapping.auth.call("auth", self._ctx(view), table=self.table.name)
            if not ok:
                raise AuthRejected(f"authentication for {self.table.name} was refused")
        request.headers = self._headers(view)
        if self.patch is not None and self.patch.has("patch_headers"):
            result = await self._hook("patch_headers", view, uri=request.uri, headers=request.headers)
            if isinstance(result, dict):
                request.headers = {str(k).lower(): to_text(v) for k, v in result.items()}
                _check_headers(request.headers, self.table.name)
        if mapping.sends_body:
            await self._body(request)
        data = None
        if request.body is not None:
            try:
                data = request.body.encode("utf-8")
            except UnicodeEncodeError as e:
                raise _not_unicode(self.table.name, "request body", e) from None
            request.headers.setdefault("content-type", request.body_type or "application/octet-stream")
        outgoing = HttpRequest(mapping.method, str(request.uri),
                               request.headers, data, self.timeout_ms, retry=self.kind == "select")
        # identical reads of different statements share one call; a statement that
        # itself asks for the same request n times (a patch's scatter) gets n calls
        key = (outgoing.url, data)
        occurrence = self._occurrences.get(key, 0)
        self._occurrences[key] = occurrence + 1
        return outgoing, occurrence

    def _headers(self, view: ParamView) -> dict[str, str]:
        settings = self.run.settings
        headers = {"user-agent": f"qlgate/{__version__}", "accept": DEFAULT_ACCEPT,
                   "accept-encoding": "gzip, deflate", "connection": settings.connection}
        for name_t, value_t in self.mapping.headers:
            name = interpolate_text(name_t, view.lookup, unresolved="").lower()
            if name:
                value = interpolate_text(value_t, view.lookup, unresolved="")
                if (name_t.tokens or value_t.tokens) and UNSAFE_IN_HEADER.search(name + value):
                    _check_headers({name: value}, self.table.name)  # raises, naming the header
                if self.table.by_caller and name_t.tokens and connection_header(name):
                    raise InvalidParameter(f"{self.table.name}: an ad-hoc table may not set the header "
                                           f"'{name[:60]}': the gateway owns the connection", param=name)
                headers[name] = value
        request_id = self.run.request_id
        if request_id:
            headers[settings.request_id_header] = request_id
        return headers

    async def _body(self, request: _Request) -> None:
        mapping, view = self.mapping, request.view
        template = mapping.body
        content: str | None = None
        body_type: str | None = template.media_type if template else None
        supplied = await self._hook("body_template", view, uri=request.uri, headers=request.headers)
        if self.opaque is MISSING:
            if isinstance(supplied, (tuple, list)) and len(supplied) == 2:
                supplied = {"type": supplied[0], "content": supplied[1]}
            params = nest_dotted(view.flat())
            extra = {"statement": _StatementInfo(self.statement, self.limit, self.offset), "table": mapping}
            if isinstance(supplied, dict) and supplied.get("content") is not None:
                body_type = supplied.get("type") or body_type or "application/octet-stream"
                content = render_mustache(str(supplied["content"]), {"params": params, **extra}, body_type)
            elif template is not None:
                content = template.render(view, params, extra)
        if self.patch is not None and self.patch.has("patch_body"):
            body = HookContext(type=body_type, content=content)
            result = await self._hook("patch_body", view, uri=request.uri, headers=request.headers, body=body)
            if isinstance(result, (tuple, list)) and len(result) == 2:
                body_type, content = result[0], result[1]
            elif isinstance(result, dict):
                body_type, content = result.get("type", body_type), result.get("content", content)
            elif isinstance(result, str):
                content = result
        if self.opaque is not MISSING:
            content = self.opaque if isinstance(self.opaque, str) else json.dumps(self.opaque, ensure_ascii=False)
            body_type = body_type or _sniff_type(content)
        request.body, request.body_type = content, body_type

    async def _response(self, response: HttpResponse, view: ParamView) -> Any:
        headers = response.headers
        text: str | None = None
        content_type = headers.get("content-type")
        if self.patch is not None and self.patch.has("parse_response"):
            parsed = await self._hook("parse_response", view, uri=response.url, status=response.status,
                                      headers=headers, body=response.body)
            if isinstance(parsed, dict):
                text = parsed.get("content")
                content_type = parsed.get("type") or content_type
            elif isinstance(parsed, str):
                text = parsed
        essence, mparams = parse_media_type(content_type)
        failure: TransformFailure | None = None
        if text is None:
            try:
                text = decode_text(response.body, mparams.get("charset"))
            except CharsetError as e:  # as for a failed transformation, the status still decides (§10.7)
                failure, text = e, response.body.decode("utf-8", errors="replace")
        run = self.run
        secrets = run.secrets if (run.trust.is_caller and run.secrets.values
                                  and self.mapping.may_echo_secret(run.secrets)) else None
        if secrets is not None:
            # an upstream that echoes a credential a table sent must not hand it to a caller's
            # script, where comparisons and filters could read it without ever printing it
            text = secrets.mask(text)
        patch = self.patch
        if patch is not None and patch.has("patch_media_type"):
            override = await self._hook("patch_media_type", view, uri=response.url, status=response.status,
                                        headers=headers, body=text)
            if isinstance(override, str) and override:
                essence, mparams = parse_media_type(override)
        body: Any = text
        if failure is None:
            try:
                body = transform(text, essence, mparams)
            except TransformFailure as e:
                failure = e
            else:
                if secrets is not None and _has_escapes(text):
                    # JSON and XML escapes (\u0041, \/, &#65;) can spell a secret the text
                    # above did not show: mask the values they decoded to as well
                    body = secrets.mask_value(body)
        status = response.status
        if patch is not None and patch.has("patch_status"):
            patched = await self._hook("patch_status", view, uri=response.url, status=status, headers=headers,
                                       body=body)
            if isinstance(patched, int) and not isinstance(patched, bool):
                status = patched
        masked_uri = self.run.secrets.mask(response.url)
        if not 200 <= status < 300:
            raise UpstreamError(f"{self.table.name}: upstream answered {status} for "
                                f"{self.mapping.method.upper()} {masked_uri}", status=status, uri=masked_uri,
                                body=self.run.secrets.mask_value(body))
        if failure is not None:
            raise TransformError(f"{self.table.name}: cannot read the {essence} response of {masked_uri}: "
                                 f"{failure}", uri=masked_uri, body=self.run.secrets.mask(text[:2000]))
        if self.patch is not None and self.patch.has("patch_response"):
            replaced = await self._hook("patch_response", view, uri=response.url, status=status,
                                        headers=headers, body=body)
            if replaced is not None:
                body = replaced
        result = select_resultset(body, self.mapping.resultset)
        if self.project is not None:
            result = self.project(result)
        self.run.note_size(result, len(response.body))     # a tree no bigger than its answer
        return result


_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def _has_escapes(text: str) -> bool:
    """Could decoding have spelled out text the raw answer did not show? Plain substring
    tests first: a regex over a whole answer costs some 30 µs per 6 KB."""
    return "\\" in text or "&#" in text or ("%" in text and _PERCENT_ESCAPE.search(text) is not None)


def _check_headers(headers: dict[str, str], table: str) -> None:
    """Refuse, before anything is sent, a header whose name or value (from a parameter
    or a patch) holds a line break or another control character: the caller's mistake,
    so a 400 naming the header."""
    for name, value in headers.items():
        part = "name" if UNSAFE_IN_HEADER.search(name) else "value" if UNSAFE_IN_HEADER.search(value) else None
        if part is not None:
            shown = repr(name) if part == "name" else name
            raise InvalidParameter(f"{table}: the {part} of header {shown} holds a line break or another "
                                   "control character (not allowed in HTTP headers)", param=name)


def _not_unicode(table: str, what: str, error: UnicodeEncodeError) -> InvalidParameter:
    """A lone surrogate (``"\\ud800"`` in a script or an upstream's JSON) can be returned
    (as a JSON escape) but not sent: URIs and bodies go out as UTF-8, which has no form
    for it. JavaScript's encodeURIComponent refuses it too."""
    bad = error.object[error.start:error.end]
    shown = "".join(f"\\u{ord(c):04x}" for c in bad[:4])
    return InvalidParameter(f"{table}: cannot send the {what}: it holds a lone surrogate ({shown}), "
                            "which is not Unicode text")


def _sniff_type(content: str) -> str:
    stripped = content.lstrip()
    if stripped.startswith("<"):
        return "application/xml"
    if stripped.startswith(("{", "[")):
        return "application/json"
    return "text/plain"


class _StatementInfo:
    """``ctx.statement``: the executing statement as hooks see it."""

    def __init__(self, statement: Any, limit: int | None, offset: int | None):
        self.type = type(statement).__name__.lower() if statement is not None else None
        pos = getattr(statement, "pos", None)
        self.line = pos.line if pos else None
        self.limit = limit
        self.offset = offset
        tuning = getattr(statement, "tuning", None)
        self.timeout = tuning.timeout if tuning else None
        columns = getattr(statement, "columns", None)
        if columns is None:
            self.columns = "*"
        else:
            self.columns = [{"name": c, "alias": None} if isinstance(c, str) else
                            {"name": str(c.path) if c.path else f"{c.udf.module}.{c.udf.function}", "alias": c.alias}
                            for c in columns]
        self.where = list(getattr(statement, "where", ()) or ())
        self.assign = None
        self.text = getattr(statement, "text", "")

    def __repr__(self) -> str:
        return f"<statement {self.type} line {self.line}>"
