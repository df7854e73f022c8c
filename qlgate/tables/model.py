"""Tables as the engine uses them: a ``create table`` compiled against the
configuration (load-time ``{config…}`` interpolation, §6.3), with its body
templates and patch module loaded and file names resolved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import QlError
from ..fields import UNSAFE_IN_FIELD, is_field_name
from ..lang import ast
from ..lang.templates import Template, Token, parse_reference, parse_template, resolve_reference
from ..values import MISSING, is_scalar, to_text
from .bodies import BodyTemplate
from .config_refs import qlio_layout
from .files import CodeDirs
from .js_patches import JsPatch, py_twin_exists
from .patches import Patch, load_module
from .shapes import ArrayPaths

BODY_METHODS = ("post", "put", "delete", "patch")
# a header's name must be a token and no value may hold a control character but tab
# (``fields.py``): checked where a table compiles, and for what is filled at run time
UNSAFE_IN_HEADER = UNSAFE_IN_FIELD


def _config_lookup(config: Any):
    def lookup(name: str) -> Any:
        return config if name == "config" else MISSING

    return lookup


def partial_interpolate(template: Template, config: Any) -> Template:
    """Resolve ``{config…}`` tokens now and keep every other token for later."""
    if not template.tokens:
        return template
    lookup = _config_lookup(config)
    empty_when_missing = qlio_layout(config)  # ql.io filled a key its config lacks with ""
    parts: list[Any] = []
    changed = False
    for part in template.parts:
        if isinstance(part, Token) and not part.required and not part.block and not part.multi:
            text = part.reference_text(lookup)
            ref = parse_reference(text) if text else None
            if ref and ref[0] == "config":
                value = resolve_reference(ref[0], ref[1], lookup)
                if value is MISSING and empty_when_missing:
                    value = ""
                if is_scalar(value):
                    parts.append(to_text(value))
                    changed = True
                    continue
        parts.append(part)
    if not changed:
        return template
    # merge adjacent literals so the template stays canonical
    merged: list[Any] = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    raw = "".join(p if isinstance(p, str) else p.raw for p in merged)
    return Template(raw, tuple(merged), tuple(p for p in merged if isinstance(p, Token)))


def operand_default(operand: ast.Operand, config: Any) -> Any:
    """A ``using defaults`` value after load-time interpolation."""
    if isinstance(operand, ast.NumberOperand):
        return operand.value
    if isinstance(operand, ast.PathOperand):
        return operand.path.text
    template = operand.template
    whole = template.whole_token
    if whole is not None:
        text = whole.reference_text(_config_lookup(config))
        ref = parse_reference(text) if text else None
        if ref and ref[0] == "config":
            value = resolve_reference(ref[0], ref[1], _config_lookup(config))
            if value is not MISSING:
                return value
            if qlio_layout(config):
                return ""
        return template
    return partial_interpolate(template, config)


@dataclass
class Mapping:
    table: str
    kind: str
    method: str
    uri: Template
    headers: tuple[tuple[Template, Template], ...]
    defaults: dict[str, Any]
    aliases: dict[str, str]
    patch: Patch | JsPatch | None
    body: BodyTemplate | None
    auth: Patch | None
    resultset: str
    expires: int | None
    block_merge: bool
    operation: str | None = None
    credential: str | None = None  # ``using auth 'name'``: the config ``auth`` entry whose token it sends
    definition: ast.MappingDef | None = None
    echo_risk: bool | None = field(default=None, repr=False, compare=False)  # see may_echo_secret
    arrays: ArrayPaths | None = None  # ``with arrays``: result-set paths always arrays (tables.shapes)

    def may_echo_secret(self, secrets: Any) -> bool:
        """Could an answer to this mapping's requests hold a config secret? Only if a
        request carries one: written into its URI or headers at load, read from the
        config at run time (a token left for later, a body template), or added by a
        patch. Worked out once; the engine masks answers only where it is so."""
        if self.echo_risk is None:
            texts = [self.uri.raw, *(n.raw + v.raw for n, v in self.headers), *map(str, self.defaults.values())]
            if self.body is not None:
                texts.append(self.body.source)
            self.echo_risk = (
                self.patch is not None
                or self.auth is not None
                or self.credential is not None
                or any("config" in t or secrets.mask(t) != t for t in texts)
            )
        return self.echo_risk

    @property
    def name(self) -> str:
        """The table's name (``ctx.table.name`` in hooks, spec §11.2)."""
        return self.table

    @property
    def sends_body(self) -> bool:
        return self.method in BODY_METHODS


@dataclass
class Table:
    name: str
    mappings: dict[str, Mapping]
    doc: str = ""
    file: str | None = None
    line: int | None = None
    connector: str | None = None
    definition: ast.CreateTable | None = field(default=None, repr=False)
    # the config its templates read at run time; None: the engine's. A caller's inline
    # table sees only the public keys (qlgate.trust)
    config: dict[str, Any] | None = field(default=None, repr=False)
    by_caller: bool = False  # defined in a caller's script: the headers it may set are limited

    @property
    def deprecated(self) -> ast.Lifecycle | None:
        """``deprecated 'DATE' use '…'`` on any of its mappings (``lifecycle.py``)."""
        mappings = self.definition.mappings if self.definition is not None else ()
        return next((m.deprecated for m in mappings if m.deprecated is not None), None)

    @property
    def retired(self) -> ast.Lifecycle | None:
        """``retired 'DATE' use '…'`` on any of its mappings (``lifecycle.py``)."""
        mappings = self.definition.mappings if self.definition is not None else ()
        return next((m.retired for m in mappings if m.retired is not None), None)


def load_patch(file: str, dirs: CodeDirs) -> Patch | JsPatch:
    """``using patch 'x.js'``: ql.io's JavaScript module in the sandbox, unless a Python
    port ``x.py`` stands beside it (the deployer's choice for qlgate, which runs)."""
    if file.endswith(".js") and not py_twin_exists(file, dirs):
        return JsPatch.load(file, dirs)
    return Patch(load_module(file, dirs), file)


def compile_table(
    create: ast.CreateTable, config: Any, dirs: CodeDirs, *, file: str | None = None, view_only: bool = False
) -> Table:
    """Build a Table; the files it names (templates, patches) are found through ``dirs``.
    ``view_only``: a caller's inline table; ``config`` is all the config it may ever read."""
    mappings: dict[str, Mapping] = {}
    for m in create.mappings:
        try:
            patch = load_patch(m.patch, dirs) if m.patch else None
            auth = Patch(load_module(m.auth, dirs, what="auth"), m.auth) if m.auth else None
            body = BodyTemplate.load(m.body.template, m.body.media_type, m.body.foreach, dirs) if m.body else None
            arrays = ArrayPaths.compile(m.arrays) if m.arrays else None
        except QlError as e:
            e.line = e.line or (m.pos.line if m.pos else create.pos.line)
            raise
        uri = partial_interpolate(parse_template(m.uri), config)
        if qlio_layout(config) and uri.raw != m.uri and "{" in uri.raw:
            # ql.io filled the config in first and read the result as the URI template, so a
            # config value may hold tokens of its own (its eBay tree's getHistograms.url)
            uri = parse_template(uri.raw)
        headers = tuple(
            (
                partial_interpolate(parse_template(p.name), config),
                partial_interpolate(p.value.template, config)
                if isinstance(p.value, ast.TextOperand)
                else parse_template(to_text(operand_default(p.value, config))),
            )
            for p in m.headers
        )
        for name, value in headers:
            if UNSAFE_IN_HEADER.search(name.raw + value.raw):
                raise QlError(
                    f"header '{name.raw[:60]}' holds a line break or another control character "
                    "(not allowed in HTTP headers)",
                    status=400,
                    line=m.pos.line if m.pos else None,
                )
            if not name.tokens and not is_field_name(name.raw):
                raise QlError(
                    f"header name {name.raw[:60]!r} is not an HTTP token (RFC 9110 §5.1: letters, digits "
                    "and !#$%&'*+-.^_`|~, no spaces or colons)",
                    status=400,
                    line=m.pos.line if m.pos else None,
                )
        defaults = {p.name: operand_default(p.value, config) for p in m.defaults}
        aliases = {
            p.name: (
                p.value.template.raw
                if isinstance(p.value, ast.TextOperand)
                else to_text(operand_default(p.value, config))
            )
            for p in m.aliases
        }
        mappings[m.kind] = Mapping(
            table=create.name,
            kind=m.kind,
            method=m.method,
            uri=uri,
            headers=headers,
            defaults=defaults,
            aliases=aliases,
            patch=patch,
            body=body,
            auth=auth,
            resultset=m.resultset or "",
            expires=m.expires,
            block_merge=any(t.block for t in uri.tokens) or bool(body and body.foreach),
            operation=m.operation,
            credential=m.credential,
            definition=m,
            arrays=arrays,
        )
    return Table(
        create.name,
        mappings,
        create.doc,
        file,
        create.pos.line,
        create.connector,
        create,
        config=config if view_only else None,
        by_caller=view_only,
    )
