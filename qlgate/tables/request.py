"""The requests a table call makes (spec §10.1–§10.5): parameters → validation →
URIs (one per fan-out value, or as a patch's ``patch_uri`` scatters them) → per
request: authentication, headers, body → an ``HttpRequest`` ready to send.

Nothing here sends or decodes: the engine decides when a request goes out and
through which call path (``engine/call_path.py``), and ``response.py`` reads the
answer. So what a table call sends can be built, and checked to the byte, from
a table definition and values alone (``tests/tables/goldens``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping as MappingType
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..errors import AuthRejected, InvalidParameter
from ..fields import is_field_name
from ..http.connection_headers import connection_header
from ..lang.templates import Template, interpolate, interpolate_text
from ..values import MISSING, to_text
from .bodies import render_mustache
from .call import CallHooks
from .config_refs import UnresolvedConfig, missing_in, unresolved
from .model import UNSAFE_IN_HEADER, Mapping, Table
from .params import ParamView, nest_dotted
from .patches import HookContext, MutableURI
from .uri_template import expand, token_value

if TYPE_CHECKING:
    from ..http.client import HttpRequest

DEFAULT_ACCEPT = "application/json,application/xml,text/csv"


@dataclass(slots=True)
class Outgoing:
    """What every request of a run carries whatever its table: config ``connection``
    and the incoming request's id under config ``requestIdHeader``. Not changed once
    made (not frozen: one is made per table call, and frozen doubles the cost)."""

    connection: str = "keep-alive"
    request_id_header: str = "request-id"
    request_id: str | None = None


def call_params(
    mapping: Mapping, params: MappingType[str, Any], *, limit: int | None = None, offset: int | None = None
) -> dict[str, Any]:
    """A statement's parameters, with its ``limit`` and ``offset`` under the names the
    mapping's aliases give them (``with aliases limit = 'count'``)."""
    out = dict(params)
    for name, value in (("limit", limit), ("offset", offset)):
        if value is not None:
            out[mapping.aliases.get(name, name)] = value
    return out


def param_view(
    mapping: Mapping,
    params: MappingType[str, Any],
    variables: MappingType[str, Any],
    *,
    request: Any = None,
    config: Any = None,
) -> ParamView:
    """The parameters a call's templates read (§10.1): the statement's, the script's
    variables, the incoming request's (None: not read) and the mapping's defaults."""
    return ParamView(
        statement=params,
        variables=variables,
        query=request.query if request is not None else None,
        headers=request.headers if request is not None else None,
        connection=request.connection if request is not None else None,
        defaults=mapping.defaults,
        resolve_default=_resolve_default,
        config=config,
    )


def _resolve_default(raw: Any, view: ParamView) -> Any:
    if isinstance(raw, Template):
        return interpolate(raw, view.lookup_below_defaults)
    return raw


class _Draft:
    """One outgoing request while hooks may still change it."""

    __slots__ = ("body", "body_type", "headers", "uri", "view")

    def __init__(self, uri: MutableURI, view: ParamView):
        self.uri, self.view = uri, view
        self.headers: dict[str, str] = {}
        self.body: str | None = None
        self.body_type: str | None = None


class RequestBuilder:
    """The requests of one call to one mapping. ``opaque``: the value of an
    ``insert into t values ("…")`` without columns, sent as the body as it is."""

    def __init__(
        self,
        hooks: CallHooks,
        *,
        kind: str,
        params: MappingType[str, Any],
        timeout_ms: int,
        outgoing: Outgoing | None = None,
        opaque: Any = MISSING,
    ):
        self.hooks = hooks
        self.table: Table = hooks.table
        self.mapping: Mapping = hooks.mapping
        self.kind, self.params, self.timeout_ms = kind, params, timeout_ms
        self.outgoing, self.opaque = outgoing if outgoing is not None else Outgoing(), opaque
        # the headers, when the mapping writes them all literally: the same for every request
        # of the call (a fan-out's), so filled once (``headers``)
        mapping = self.mapping
        self._fixed_headers: dict[str, str] | None = None
        self._literal_only = all(not n.tokens and not v.tokens for n, v in mapping.headers)
        # no hooks, no authentication, no body: ``build`` has nothing to do but fill the headers
        self._plain = (
            hooks.patch is None and not mapping.sends_body and mapping.auth is None and mapping.credential is None
        )
        self._retry = kind == "select"

    async def validate(self, view: ParamView) -> None:
        """``validate_param`` (§11.3) for every parameter the call has a value for."""
        if not self.hooks.has("validate_param"):
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
            ok = await self.hooks.call("validate_param", view, name=name, value=value)
            if not ok:
                raise InvalidParameter(f'Value of {name} "{to_text(value)}" is not valid', param=name)

    async def uris(self, view: ParamView) -> tuple[list[tuple[str, dict[str, Any]]], bool]:
        """Each request's URI with the fan-out values bound for it, and whether the
        answers are kept apart (block merge, §8.3) rather than merged."""
        table, mapping, hooks = self.table, self.mapping, self.hooks
        try:
            expanded = expand(mapping.uri, view, table=table.name)
        except UnicodeEncodeError as e:  # percent-encoding needs UTF-8, which a lone surrogate has not
            raise not_unicode(table.name, "URI", e) from None
        except UnresolvedConfig as e:  # in a caller's own table, the caller's mistake
            if table.by_caller:
                e.status = 400
            raise
        requests: list[tuple[str, dict[str, Any]]] = []
        for item in expanded:
            if hooks.has("patch_uri"):
                forked = view.fork(item.binding)
                result = await hooks.call("patch_uri", forked, uri=MutableURI(item.uri))
                view.private.update(forked.private)
                for uri in result if isinstance(result, list) else [result] if result is not None else []:
                    requests.append((str(uri), item.binding))
            else:
                requests.append((item.uri, item.binding))
        block = mapping.block_merge
        body = mapping.body
        if requests and body is not None and body.foreach and mapping.sends_body:
            values = view.lookup(body.foreach)
            if isinstance(values, list):
                first_uri, binding = requests[0]
                requests = [(first_uri, {**binding, body.foreach: v}) for v in values]
                block = True
        return requests, block

    @staticmethod
    def request_views(requests: list[tuple[str, dict[str, Any]]], view: ParamView) -> list[tuple[str, ParamView]]:
        """Each request's URI with the view its templates read: the call's own view for
        a lone request without fan-out values, else a fork per request (its own private
        layer, its own binding)."""
        if len(requests) == 1:
            uri, binding = requests[0]
            return [(uri, view.fork(binding) if binding else view)]
        return [(uri, view.fork(binding)) for uri, binding in requests]

    async def build_all(self, view: ParamView) -> list[HttpRequest]:
        """Every request of the call, in order, built and not sent: what a table call
        would send (golden files, tools)."""
        await self.validate(view)
        requests, _ = await self.uris(view)
        return [await self.build(uri, forked) for uri, forked in self.request_views(requests, view)]

    async def build(self, uri_text: str, view: ParamView) -> HttpRequest:
        """One request: authentication, headers, body, each open to its hooks."""
        mapping, hooks, name = self.mapping, self.hooks, self.table.name
        if self._plain:  # its URI and headers, nothing a hook could change: most of a fan-out's requests
            return _request_type()(
                mapping.method, uri_text, self.headers(view), None, self.timeout_ms, retry=self._retry
            )
        draft = _Draft(MutableURI(uri_text), view)
        if mapping.auth is not None and not await hooks.authenticate(view):
            raise AuthRejected(f"authentication for {name} was refused")
        draft.headers = self.headers(view)
        if mapping.credential is not None and "authorization" not in draft.headers:
            # ``using auth 'NAME'``: before patch_headers, which may move it (eBay Trading's IAF header)
            draft.headers["authorization"] = "Bearer " + await hooks.access_token(mapping.credential)
        has_patch = hooks.patch is not None  # most tables have no patch: one test for all hooks
        if has_patch and hooks.has("patch_headers"):
            opaque = self.opaque if isinstance(self.opaque, str) else None
            result = await hooks.call("patch_headers", view, uri=draft.uri, headers=draft.headers, opaque=opaque)
            if isinstance(result, dict):
                draft.headers = {str(k).lower(): to_text(v) for k, v in result.items()}
                check_headers(draft.headers, name)
        if mapping.sends_body:
            await self._body(draft)
        data = None
        if draft.body is not None:
            try:
                data = draft.body.encode("utf-8")
            except UnicodeEncodeError as e:
                raise not_unicode(name, "request body", e) from None
            draft.headers.setdefault("content-type", draft.body_type or "application/octet-stream")
        return _request_type()(mapping.method, str(draft.uri), draft.headers, data, self.timeout_ms, retry=self._retry)

    def headers(self, view: ParamView) -> dict[str, str]:
        """The gateway's own headers, then the mapping's (``using headers``), filled: a
        dict of the request's own (hooks change it). Without a token to fill, they are
        the same for every request of the call, and filled once."""
        if not self._literal_only:
            return self._filled_headers(view)
        if self._fixed_headers is None:
            self._fixed_headers = self._filled_headers(view)
        return dict(self._fixed_headers)

    def _filled_headers(self, view: ParamView) -> dict[str, str]:
        table, outgoing = self.table, self.outgoing
        headers = {
            "user-agent": f"qlgate/{__version__}",
            "accept": DEFAULT_ACCEPT,
            "accept-encoding": "gzip, deflate",
            "connection": outgoing.connection,
        }
        for name_t, value_t in self.mapping.headers:
            if name_t.tokens or value_t.tokens:  # a config token naming nothing is an error, not ""
                for template in (name_t, value_t):
                    if (missing := missing_in(template, view.config)) is not None:
                        raise unresolved(
                            missing,
                            table.name,
                            view.config,
                            f"header {name_t.raw!r}",
                            by_caller=table.by_caller,
                            written=template.raw,
                        )
            name = interpolate_text(name_t, view.lookup, unresolved="").lower()
            if name:
                value = interpolate_text(value_t, view.lookup, unresolved="")
                if (name_t.tokens or value_t.tokens) and (
                    UNSAFE_IN_HEADER.search(name + value) or not is_field_name(name)
                ):
                    check_headers({name: value}, table.name)  # raises, naming the header
                if table.by_caller and name_t.tokens and connection_header(name):
                    raise InvalidParameter(
                        f"{table.name}: an ad-hoc table may not set the header "
                        f"'{name[:60]}': the gateway owns the connection",
                        param=name,
                    )
                headers[name] = value
        if outgoing.request_id:
            headers[outgoing.request_id_header] = outgoing.request_id
        return headers

    async def _body(self, draft: _Draft) -> None:
        """The body (§10.4): a patch's ``body_template``, else the mapping's template,
        then ``patch_body``; an opaque insert's value replaces it."""
        mapping, view, hooks = self.mapping, draft.view, self.hooks
        template = mapping.body
        content: str | None = None
        body_type: str | None = template.media_type if template else None
        opaque_text = self.opaque if isinstance(self.opaque, str) else None
        supplied = await hooks.call("body_template", view, uri=draft.uri, headers=draft.headers, opaque=opaque_text)
        if self.opaque is MISSING:
            if isinstance(supplied, (tuple, list)) and len(supplied) == 2:
                supplied = {"type": supplied[0], "content": supplied[1]}
            params = nest_dotted(view.flat())
            extra = {"statement": hooks.statement_info(), "table": mapping}
            if isinstance(supplied, dict) and supplied.get("content") is not None:
                body_type = supplied.get("type") or body_type or "application/octet-stream"
                content = render_mustache(str(supplied["content"]), {"params": params, **extra}, body_type)
            elif template is not None:
                content = await template.render_async(view, params, extra)
        if hooks.has("patch_body"):
            body = HookContext(type=body_type, content=content, opaque=opaque_text)
            result = await hooks.call(
                "patch_body", view, uri=draft.uri, headers=draft.headers, body=body, opaque=opaque_text
            )
            if opaque_text is not None and isinstance(result, dict) and isinstance(result.get("opaque"), str):
                self.opaque = result["opaque"]  # the hook amended the opaque value (eBay: credentials)
            elif isinstance(result, (tuple, list)) and len(result) == 2:
                body_type, content = result[0], result[1]
            elif isinstance(result, dict):
                body_type, content = result.get("type", body_type), result.get("content", content)
            elif isinstance(result, str):
                content = result
        if self.opaque is not MISSING:
            opaque = self.opaque
            content = opaque if isinstance(opaque, str) else json.dumps(opaque, ensure_ascii=False)
            body_type = body_type or _sniff_type(content)
        draft.body, draft.body_type = content, body_type


@cache
def _request_type() -> type[HttpRequest]:
    """``HttpRequest``, imported by the first call, not with the engine; once (an import
    statement per request costs half a microsecond)."""
    from ..http.client import HttpRequest

    return HttpRequest


def check_headers(headers: dict[str, str], table: str) -> None:
    """Refuse, before anything is sent, a header whose name is not an HTTP token or whose
    name or value (from a parameter or a patch) holds a line break or another control
    character: the caller's mistake, so a 400 naming the header."""
    for name, value in headers.items():
        if not UNSAFE_IN_HEADER.search(name) and not is_field_name(name):
            raise InvalidParameter(
                f"{table}: the header name {name[:60]!r} is not an HTTP token (RFC 9110 §5.1: letters, "
                "digits and !#$%&'*+-.^_`|~, no spaces or colons)",
                param=name,
            )
        part = "name" if UNSAFE_IN_HEADER.search(name) else "value" if UNSAFE_IN_HEADER.search(value) else None
        if part is not None:
            shown = repr(name) if part == "name" else name
            raise InvalidParameter(
                f"{table}: the {part} of header {shown} holds a line break or another "
                "control character (not allowed in HTTP headers)",
                param=name,
            )


def not_unicode(table: str, what: str, error: UnicodeEncodeError) -> InvalidParameter:
    """A lone surrogate (``"\\ud800"`` in a script or an upstream's JSON) can be returned
    (as a JSON escape) but not sent: URIs and bodies go out as UTF-8, which has no form
    for it. JavaScript's encodeURIComponent refuses it too."""
    bad = error.object[error.start : error.end]
    shown = "".join(f"\\u{ord(c):04x}" for c in bad[:4])
    return InvalidParameter(
        f"{table}: cannot send the {what}: it holds a lone surrogate ({shown}), which is not Unicode text"
    )


def _sniff_type(content: str) -> str:
    stripped = content.lstrip()
    if stripped.startswith("<"):
        return "application/xml"
    if stripped.startswith(("{", "[")):
        return "application/json"
    return "text/plain"
