"""Every hook a table's modules may define, declared once (spec §10.10, §11).

A hook is a function in a deployer's module that the engine calls by name, so
its name, what its ``ctx`` holds and what its answer means are a contract with
code qlgate never sees. This module is that contract:

- one typed ``Protocol`` per kind of ``ctx`` (``Context`` for what every hook
  gets, ``PatchUriContext`` … for each hook's own attributes), each attribute
  with its meaning beside its type, for hook authors to annotate with;
- one spec function per hook, whose signature is the hook's and whose body is
  what happens when a module does not define it (``validate_param`` and ``auth``
  accept, ``patch_uri`` keeps the URI, the others return None: keep what there is);
- ``HOOKS``, the registry those functions fill: ``patches.Patch`` takes a
  module's hooks by it and refuses, when the table loads, a function named like
  a hook that is none (``patchUri``, ``patch_url``), which would otherwise be
  ignored without a word while requests go out unpatched.

``docs/hooks.md`` is generated from here (``python3 -m qlgate.tables.hookspecs > docs/hooks.md``).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, TypeAlias, TypeVar

if TYPE_CHECKING:  # types only: the engine's and the tables' modules are what this one describes
    from ..lang.templates import Template
    from ..request_info import RequestInfo
    from .bodies import BodyTemplate
    from .params import ParamView
    from .patches import MutableURI

T = TypeVar("T")
Returns: TypeAlias = T | Awaitable[T]
"""What a hook returns: the value, or an awaitable of it (a hook may be ``async def``)."""

ModuleKind = Literal["patch", "auth"]


# ---------------------------------------------------------------------------- what ctx holds


class TableInfo(Protocol):
    """``ctx.table``: the mapping of the table the statement runs (one per verb)."""

    name: Annotated[str, "the table's name"]
    kind: Annotated[str, "the verb the mapping serves: `select`, `insert`, `update` or `delete`"]
    method: Annotated[str, "the HTTP method, lower case"]
    uri: Annotated[Template, "the URI template after load-time `{config…}` interpolation (`.raw` is its text)"]
    headers: Annotated[tuple[tuple[Template, Template], ...], "the `using headers` pairs, as templates"]
    defaults: Annotated[dict[str, Any], "the `using defaults` values"]
    aliases: Annotated[dict[str, str], "the `with aliases` names (`limit` → the API's own name)"]
    body: Annotated[BodyTemplate | None, "the body template (`.file`, `.media_type`, `.source`, `.foreach`), or None"]
    resultset: Annotated[str, "the `resultset` path the result is cut from (empty: the whole body)"]
    expires: Annotated[int | None, "the `expires` seconds, or None"]


class StatementInfo(Protocol):
    """``ctx.statement``: the statement being run, as far as a hook needs it."""

    type: Annotated[str | None, "`select`, `insert`, `update` or `delete`"]
    line: Annotated[int | None, "its line in the script"]
    limit: Annotated[int | None, "its `limit`, or None"]
    offset: Annotated[int | None, "its `offset`, or None"]
    timeout: Annotated[int | None, "its `timeout` in milliseconds, or None"]
    columns: Annotated[list[dict[str, Any]] | str, 'the selected columns as `{"name", "alias"}` objects, or `"*"`']
    where: Annotated[list[Any], "its where conditions, as parsed"]
    assign: Annotated[str | None, "always None in this version (spec §11.2 promises the assigned variable)"]
    text: Annotated[str, "its text"]


class BodyParts(Protocol):
    """``ctx.body`` of ``patch_body``: the request body as rendered so far."""

    type: Annotated[str | None, "its media type"]
    content: Annotated[str | None, "its text; None when the mapping has no body template"]
    opaque: Annotated[
        str | None,
        "the text of an opaque insert (`insert into t values ('…')`), which replaces the body after "
        'this hook and is sent as it is; the hook may amend it by returning `{"opaque": text}`. '
        "None for other statements",
    ]


class Context(Protocol):
    """What every hook's ``ctx`` holds."""

    hook: Annotated[str, "the hook's name (`patch_uri`, …), for code that several hooks share"]
    table: Annotated[TableInfo, "the table mapping the statement runs (below)"]
    statement: Annotated[StatementInfo, "the statement being run (below)"]
    params: Annotated[
        ParamView,
        "the statement's parameters over the script's variables, the request and the defaults (spec §10.1): "
        '`ctx.params["q"]`, `.get(name)`; an assignment lands in a private layer that the later hooks and '
        "the body template of the same statement see; `.flat()` is a plain dict",
    ]
    config: Annotated[Mapping[str, Any], "the configuration (a caller's own table sees its public keys only)"]
    vars: Annotated[Mapping[str, Any], "the script's variables, read-only"]
    request: Annotated[
        RequestInfo | None,
        "the gateway request the script runs for (`.query`, `.headers`, `.route_params`, `.connection` with the `remoteAddress`); "
        "None outside one (`qlgate run`, a job)",
    ]

    def log(self, level: str, message: str) -> None:
        """`"warn"`, `"warning"` or `"error"`: the message joins the run's warnings
        (answered with the result, printed by `qlgate run`); other levels are dropped."""
        ...

    async def access_token(self, name: str) -> str:
        """`await ctx.access_token("ebay.user")`: an OAuth2 access token of the config
        `auth` entry `name` — the one `using auth 'name'` sends as `Authorization: Bearer`,
        cached, shared and fetched once for all who wait — for a patch that sends it
        elsewhere (eBay Trading's `X-EBAY-API-IAF-TOKEN`). When an upstream answers 401
        because a token was refused, the statement renews the credentials its requests
        asked for this way and sends again once. Tokens are masked in results, errors,
        diagnostics and logs; never log one yourself."""
        ...


class ValidateParamContext(Context, Protocol):
    name: Annotated[str, "the parameter's name"]
    value: Annotated[Any, "its value (never missing: absent parameters are not validated)"]


class PatchUriContext(Context, Protocol):
    uri: Annotated[MutableURI, "the URI the template expanded to; edit it in place (`set_param`, `host`, …)"]


class RequestContext(Context, Protocol):
    uri: Annotated[MutableURI, "the request's URI, as `patch_uri` left it (read it here)"]
    headers: Annotated[dict[str, str], "the request's headers so far, lower-case names"]
    opaque: Annotated[str | None, "the text of an opaque insert (`insert into t values ('…')`), else None"]


class PatchBodyContext(RequestContext, Protocol):
    body: Annotated[BodyParts, "the body rendered from the table's template or `body_template` (above)"]


class ComputeKeyContext(Context, Protocol):
    uri: Annotated[str, "the final URI"]
    method: Annotated[str, "the HTTP method"]
    headers: Annotated[dict[str, str], "the headers to be sent"]
    body: Annotated[str | None, "the body to be sent, or None"]
    request_id_header: Annotated[str, "the name of the request-id header (left out of keys)"]


class ResponseContext(Context, Protocol):
    uri: Annotated[str, "the URL that answered (after redirects)"]
    status: Annotated[int, "the answer's HTTP status"]
    headers: Annotated[dict[str, str], "the answer's headers, lower-case names"]


class ParseResponseContext(ResponseContext, Protocol):
    body: Annotated[bytes, "the answer's bytes, content-decoded (gzip undone), not yet read as text"]


class PatchMediaTypeContext(ResponseContext, Protocol):
    body: Annotated[str, "the answer as text"]


class PatchStatusContext(ResponseContext, Protocol):
    body: Annotated[Any, "the answer read as JSON (XML and CSV converted), or its text if that failed"]


class PatchResponseContext(ResponseContext, Protocol):
    body: Annotated[Any, "the answer read as JSON (XML and CSV converted)"]


# ---------------------------------------------------------------------------- the registry


@dataclass(frozen=True)
class HookSpec:
    """One hook: ``spec`` is its typed signature (and its default behaviour)."""

    name: str
    module: ModuleKind  # the kind of module that defines it: ``using patch`` or ``auth using``
    qlio: str  # ql.io's name for it, for porting
    runs: str  # when the engine calls it
    spec: Callable[..., Any]
    called: bool = True  # False: declared by the spec, not called by this version

    @property
    def doc(self) -> str:
        """What the hook may do, and what its answer means."""
        return inspect.getdoc(self.spec) or ""

    @property
    def context(self) -> type:
        """The Protocol of its ``ctx``."""
        return globals()[inspect.signature(self.spec).parameters["ctx"].annotation]

    @property
    def returns(self) -> str:
        """Its return type as written, without the ``Returns[…]`` that lets it be async."""
        text = str(inspect.signature(self.spec).return_annotation)
        return text[len("Returns[") : -1] if text.startswith("Returns[") else text

    def attributes(self) -> list[tuple[str, str, str]]:
        """``(name, type, meaning)`` of what its ``ctx`` holds beyond ``Context``."""
        return _attributes(self.context, stop=Context)

    def ctx_names(self) -> frozenset[str]:
        """Every name its ``ctx`` holds: ``Context``'s (its methods too) and its own."""
        return frozenset(name for name, _, _ in _attributes(self.context)) | {"log", "access_token"}


HOOKS: dict[str, HookSpec] = {}
"""Every hook by name, in the order a request meets them."""


def _hook(
    module: ModuleKind, qlio: str, runs: str, *, called: bool = True
) -> Callable[[Callable[..., T]], Callable[..., T]]:
    def register(spec: Callable[..., T]) -> Callable[..., T]:
        HOOKS[spec.__name__] = HookSpec(spec.__name__, module, qlio, runs, spec, called)
        return spec

    return register


@_hook(
    "patch", "validate param", "once per parameter the statement, the defaults or the URI name, before URIs are built"
)
def validate_param(ctx: ValidateParamContext) -> Returns[object]:
    """Accept the parameter with a true answer. A false one fails the statement before
    anything is sent: 400, `Value of <name> "<value>" is not valid`."""
    return True


@_hook("patch", "patch uri", "once per URI the table's template expands to, before anything is sent")
def patch_uri(ctx: PatchUriContext) -> Returns[MutableURI | str | list[MutableURI | str] | None]:
    """Rewrite the request's URI: edit `ctx.uri` and return it, or return another URI
    (a `MutableURI` or text). A list sends one request per URI (a scatter, whose
    results are merged); None sends nothing for this URI."""
    return ctx.uri


@_hook("auth", "auth", "once per request, before `patch_headers` (in the module `auth using` names)")
def auth(ctx: Context) -> Returns[object]:
    """Allow the request with a true answer. A false one fails the statement with 401
    and sends nothing."""
    return True


@_hook("patch", "patch headers", "once per request, after the table's own headers are set")
def patch_headers(ctx: RequestContext) -> Returns[Mapping[str, Any] | None]:
    """Replace the request's headers with the mapping returned (names are lower-cased,
    values made text; a line break in either fails the statement with 400). None keeps
    them (ql.io cleared them)."""
    return None


@_hook("patch", "body template", "once per request that sends a body (post, put, …), before the body is rendered")
def body_template(ctx: RequestContext) -> Returns[Mapping[str, str] | tuple[str, str] | None]:
    """Supply the body's template: `{"type": …, "content": …}` or `(type, content)`,
    rendered as Mustache with the parameters. None uses the table's own template."""
    return None


@_hook("patch", "patch body", "once per request that sends a body, after it is rendered")
def patch_body(ctx: PatchBodyContext) -> Returns[Mapping[str, str] | tuple[str, str] | str | None]:
    """Replace the body: `{"type": …, "content": …}`, `(type, content)`, or the content
    alone as text. None keeps it."""
    return None


@_hook("patch", "compute key", "per GET or HEAD request of a select whose table or statement says `expires`")
def compute_key(ctx: ComputeKeyContext) -> Returns[str | None]:
    """The cache key (hashed before use), or None not to cache. It is used even for a
    request with a caller's own credential (never stored otherwise): make it tell callers apart."""
    return None


@_hook("patch", "parse response", "once per answer, on its bytes, before they are read as text")
def parse_response(ctx: ParseResponseContext) -> Returns[Mapping[str, str] | str | None]:
    """Read the answer yourself: `{"content": text, "type"?: media type}` or the text
    alone replaces the decoding by charset. None decodes as usual."""
    return None


@_hook("patch", "patch mediaType", "once per answer, read as text, before it is converted (XML, CSV to JSON)")
def patch_media_type(ctx: PatchMediaTypeContext) -> Returns[str | None]:
    """The media type to read the answer as, in place of its `Content-Type`. None keeps it."""
    return None


@_hook("patch", "patch status", "once per answer, after it is converted, before its status is judged")
def patch_status(ctx: PatchStatusContext) -> Returns[int | None]:
    """The status to judge the answer by: outside 200–299 the statement fails (400 for a
    4xx, 502 otherwise) with the body attached. None keeps the upstream's."""
    return None


@_hook("patch", "patch response", "once per successful answer, before `resultset` cuts the result from it")
def patch_response(ctx: PatchResponseContext) -> Returns[Any]:
    """The body to take the result from, in place of the answer's. None keeps it."""
    return None


# ---------------------------------------------------------------------------- docs


def _attributes(protocol: type, *, stop: type | None = None) -> list[tuple[str, str, str]]:
    """``(name, type, meaning)`` of a Protocol's attributes, its bases' first, read from
    the annotations as written: ``Annotated[type, "meaning"]``."""
    out: dict[str, tuple[str, str, str]] = {}
    for cls in reversed(protocol.__mro__):
        if cls.__module__ != __name__ or (stop is not None and cls in stop.__mro__):
            continue
        for name, text in inspect.get_annotations(cls).items():
            out[name] = (name, *_annotated(text))
    return list(out.values())


def _annotated(text: str) -> tuple[str, str]:
    node = ast.parse(text, mode="eval").body
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Annotated":
        assert isinstance(node.slice, ast.Tuple)
        kind, meaning = node.slice.elts[0], node.slice.elts[1]
        return ast.unparse(kind), str(ast.literal_eval(meaning))
    return text, ""


def _table(rows: list[tuple[str, str, str]], prefix: str = "ctx.") -> list[str]:
    def cell(text: str) -> str:
        return text.replace("|", "\\|")  # a pipe ends a table cell, in code spans too

    lines = ["| attribute | type | meaning |", "| --- | --- | --- |"]
    lines += [f"| `{prefix}{name}` | `{cell(kind)}` | {cell(meaning)} |" for name, kind, meaning in rows]
    return lines


def render() -> str:
    """``docs/hooks.md``: the registry as Markdown."""
    out = [
        "# Hooks",
        "",
        "<!-- Generated by `python3 -m qlgate.tables.hookspecs > docs/hooks.md` from",
        "     qlgate/tables/hookspecs.py; edit that file, not this one. -->",
        "",
        "A table's mapping may name a **patch module** (`using patch 'shop.py'`) and an **auth module**",
        "(`auth using 'guard.py'`): Python files beside the table that define hooks, plain module-level",
        "functions taking one argument, `ctx`, each `def` or `async def`. A module defines any subset of",
        "them; its other names are ignored, except a function named like a hook that is none",
        "(`patchUri`, `patch_url`): a warning names the hook meant when the table loads. Start a",
        "helper's name with `_`.",
        "",
        "A hook that raises fails the statement: with the exception's own `status` when it has one",
        "(500 otherwise); a `qlgate.QlError` it raises is answered as it is.",
        "",
        "Types for annotating hooks are in `qlgate.tables.hookspecs` (`PatchUriContext`, …).",
        "",
        "| hook | module | ql.io name | called |",
        "| --- | --- | --- | --- |",
    ]
    out += [f"| [`{s.name}`](#{s.name}) | {s.module} | `{s.qlio}` | {s.runs} |" for s in HOOKS.values()]
    out += ["", "## What every hook's `ctx` holds", ""]
    out += _table(_attributes(Context))
    out += [f"| `ctx.log(level, message)` | method | {' '.join((inspect.getdoc(Context.log) or '').split())} |"]
    out += [
        f"| `ctx.access_token(name)` | async method | {' '.join((inspect.getdoc(Context.access_token) or '').split())} |"
    ]
    for protocol, prefix in ((TableInfo, "ctx.table."), (StatementInfo, "ctx.statement.")):
        out += ["", f"### `{prefix[:-1]}`", "", (inspect.getdoc(protocol) or "").replace("``", "`"), ""]
        out += _table(_attributes(protocol), prefix)
    for spec in HOOKS.values():
        returns = spec.returns
        out += [
            "",
            f"## {spec.name}",
            "",
            f"`def {spec.name}(ctx: {spec.context.__name__}) -> {returns}` (or `async def`)",
            "",
            f"**Called:** {spec.runs}.",
            "",
            f"**Answer:** {' '.join(spec.doc.split())}",
            "",
        ]
        extra = spec.attributes()
        if not extra:
            out += ["**`ctx`:** what every hook's holds.", ""]
            continue
        out += ["**`ctx`:** what every hook's holds, and:", "", *_table(extra), ""]
        if spec.context is PatchBodyContext:
            out += ["`ctx.body` is the body as rendered so far:", "", *_table(_attributes(BodyParts), "ctx.body."), ""]
    text = "\n".join(out)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.rstrip("\n") + "\n"


if __name__ == "__main__":
    import sys

    sys.stdout.write(render())
