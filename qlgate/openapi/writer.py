"""One operation → one readable table file (and its JSON body template).

The table is what a person would write by hand: a ``-- `` documentation block
(summary, method and path, an ``Example:`` the console runs, the columns), then
``create table`` with the URI template (``{^x}`` for a required parameter, ``{x}``
for an optional one, ``{|x}`` for an array sent comma-separated), the headers, the
paging aliases, the body template, the shared patch, ``using auth`` and the
resultset. Everything is ordered as the spec orders it, so re-running gives the
same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from . import checks
from .checks import SpecError, clause
from .model import TARGETS, Operation, Param, body_fields, identifier, main_array, schema_kind


@dataclass(frozen=True)
class Target:
    """Where and under which name an operation's table is written."""

    name: str  # the table's full name (``petshop.listPets``)
    stem: str  # the file name without suffix (``listPets``)
    base: str  # the base URL, usually a ``{config…}`` reference
    patch: str | None = None  # the shared patch module, relative to the table file
    example: str | None = None  # a script for the ``Example:`` line
    defaults: tuple[tuple[str, str], ...] = ()  # extra ``using defaults``


def _where(op: Operation) -> str:
    """The operation, for an error: ``operation addPet (POST '/pets')``."""
    return f"operation {op.operation_id} ({op.method.upper()} {checks.shown(op.path)})"


def _checked(op: Operation) -> None:
    """What the files quote from the spec is checked again here, whoever built ``op``
    (normalise.py, the eBay generator): the path, the media type, the names."""
    where = _where(op)
    checks.path(op.path, where)
    if op.body is not None:
        checks.media_type(op.body.media_type, f"{where}: the body's media type")
    for name, _value in op.headers:
        if not checks.HEADER_NAME.match(name):
            raise SpecError(f"{where}: header {checks.shown(name)} is not a token")
    for p in op.params:
        pattern = checks.HEADER_NAME if p.location == "header" else checks.PARAM_NAME
        if not pattern.match(p.name):
            raise SpecError(f"{where}: {p.location} parameter {checks.shown(p.name)} is not a token")
    result = main_array(op.response)
    if result and not checks.RESULTSET_KEY.match(result):
        raise SpecError(f"{where}: the answer's array {checks.shown(result)} is not a word (resultset)")


def _token(param: Param) -> str:
    mods = ("^" if param.required else "") + ("|" if param.kind.endswith("[]") else "")
    return "{" + mods + param.column + "}"


def _wrap(words: list[str], prefix: str, width: int = 100, sep: str = ", ") -> list[str]:
    """``-- Columns: a, b, …`` folded under its own indent."""
    lines, current = [], prefix
    indent = "--" + " " * (len(prefix) - 2)
    for word in words:
        if len(current) + len(word) + len(sep) > width and current not in (prefix, indent):
            lines.append(current.rstrip() if sep == " " else current.rstrip(", ") + ",")
            current = indent
        current += word + sep
    if current not in (prefix, indent):
        lines.append(current.rstrip() if sep == " " else current.rstrip(", "))
    return lines


def uri(op: Operation, base: str) -> str:
    path = op.path
    for p in op.params:
        if p.location == "path":
            path = path.replace("{" + p.name + "}", _token(p))
    query = [f"{quote(k, safe='')}={v}" for k, v in op.query]
    query += [f"{quote(p.name, safe='')}={_token(p)}" for p in op.params if p.location == "query"]
    return base.rstrip("/") + path + ("?" + "&".join(query) if query else "")


def json_body(op: Operation) -> bool:
    """Is the body JSON, built from columns by a template (else only an opaque value)?"""
    return op.body is not None and "json" in op.body.media_type.split(";")[0].lower()


def columns_doc(op: Operation) -> list[str]:
    """Each column as the docs list it: ``name`` plus where it goes, ``^`` when required."""
    out = []
    for p in op.params:
        where = p.location if p.column == p.name else f"{p.location} {p.name}"
        out.append(f"{'^' if p.required else ''}{p.column} ({where})")
    if json_body(op):
        assert op.body is not None
        out += [f"{'^' if req else ''}{path}" for path, _kind, req in body_fields(op.body.schema)]
    return out


def doc_block(op: Operation, target: Target) -> list[str]:
    summary = " ".join(op.summary.split())
    lines = [f"-- {summary}"] if summary else []
    result = main_array(op.response)
    answer = f"; the resultset is the `{result}` array" if result else ""
    lines.append(f"-- {op.method.upper()} {op.path} (operation {op.operation_id}){answer}.")
    if op.deprecated:
        lines.append("-- Deprecated by the API.")
    paging = op.paging
    if paging.limit or paging.offset or paging.page:
        parts = [f"limit → {paging.limit}"] if paging.limit else []
        parts += [f"offset → {paging.offset}"] if paging.offset else []
        parts += [f"offset → {paging.page} (offset / limit + 1)"] if paging.page else []
        lines.append(f"-- Paging: {', '.join(parts)}.")
    if op.auth:
        scopes = f" (scopes: {' '.join(op.scopes)})" if op.scopes else ""
        lines.append(f"-- Auth: the config auth entry '{op.auth}'{scopes}.")
    if op.body is not None:
        how = (
            f"from the columns through {target.stem}.j2 (dotted paths, typed per the schema, absent ones"
            " left out); one value and no columns is sent as it is."
            if json_body(op)
            else 'only an opaque value: insert into … values ("{body}") sends it as it is.'
        )
        lines += _wrap(f"Body ({op.body.media_type}) {how}".split(" "), "-- ", sep=" ")
    lines += [f"-- {note}" for note in op.notes]
    if target.example:
        lines.append(f"-- Example: {target.example}")
    columns = columns_doc(op)
    if columns:
        shown = columns if len(columns) <= 60 else [*columns[:60], f"… ({len(columns) - 60} more in {target.stem}.j2)"]
        lines += _wrap(shown, "-- Columns: ")
    return [checks.comment(line) for line in lines]  # spec text never starts a line of its own


def _pairs(keyword: str, pairs: list[tuple[str, str]], quote_names: bool, where: str) -> list[str]:
    if not pairs:
        return []
    first = f"     {keyword} "
    pad = " " * len(first)
    for n, _v in pairs:
        if not quote_names and not checks.RESULTSET_KEY.match(n):
            raise SpecError(f"{where}: {keyword}: {checks.shown(n)} is not a column name")
    rendered = [
        f"{clause(n, where) if quote_names else n} = {clause(v, where) if quote_names else json.dumps(v)}"
        for n, v in pairs
    ]
    return [(first if i == 0 else pad) + r + ("," if i < len(rendered) - 1 else "") for i, r in enumerate(rendered)]


def table_text(op: Operation, target: Target) -> str:
    """The ``.ql`` file of one operation."""
    _checked(op)
    where = _where(op)
    lines = doc_block(op, target)
    lines.append(f"create table {target.name}")
    address = clause(uri(op, target.base), where, quote='"')
    lines.append(f"  on {op.verb} {TARGETS[op.method]} {address}")
    paging = op.paging
    aliases = []
    by_name = {p.name: p for p in op.params if p.location == "query"}
    if paging.limit and by_name[paging.limit].column != "limit":
        aliases.append(("limit", by_name[paging.limit].column))
    if paging.offset and by_name[paging.offset].column != "offset":
        aliases.append(("offset", by_name[paging.offset].column))
    if paging.page:
        aliases.append(("page", by_name[paging.page].column))
    if aliases:
        lines.append("     with aliases " + ", ".join(f"{n} = {clause(v, where)}" for n, v in aliases))
    headers = list(op.headers)
    headers += [(p.name, _token(p)) for p in op.params if p.location == "header"]
    lines += _pairs("using headers", headers, True, where)
    defaults = [(p.column, p.default) for p in op.params if p.default is not None]
    lines += _pairs("using defaults", [*defaults, *target.defaults], False, where)
    if json_body(op):
        assert op.body is not None
        template, media = clause(f"{target.stem}.j2", where), clause(op.body.media_type, where)
        lines.append(f"     using bodyTemplate {template} type {media}")
    if target.patch:
        lines.append(f"     using patch {clause(target.patch, where)}")
    if op.auth:
        lines.append(f"     using auth {clause(op.auth, where)}")
    result = main_array(op.response)
    if result:
        lines.append(f"     resultset {clause(result, where)}")
    return "\n".join(lines) + "\n"


def _shape(schema: dict[str, Any], prefix: str, depth: int) -> list[str]:
    """The body's members as lines of a Jinja2 dict literal (see json_body.py)."""
    pad = "  " * depth
    out = []
    for name, node in (schema.get("properties") or {}).items():
        path = f"{prefix}{identifier(name, 'member')}"
        key = json.dumps(name)
        if node.get("type") == "object" and node.get("properties") and not node.get("truncated"):
            out.append(f"{pad}{key}: {{")
            out += _shape(node, path + ".", depth + 1)
            out.append(f"{pad}}},")
        else:
            out.append(f"{pad}{key}: params | field({json.dumps(path)}, {json.dumps(schema_kind(node))}),")
    return out


def body_template(op: Operation, target: Target) -> str | None:
    """The ``.j2`` body template of an operation with a JSON body, else None."""
    if not json_body(op):
        return None
    assert op.body is not None
    _checked(op)
    schema = op.body.schema
    about = checks.jinja_comment(f"{target.name} ({op.method.upper()} {op.path}, {op.body.media_type})")
    head = [
        f"{{#- The JSON body of {about}.",
        "    Generated from the API's schema: each member is the column of the same dotted path,",
        "    converted to the schema's type; members without a value are left out (json_body.py). -#}",
    ]
    if schema.get("type") == "object" and schema.get("properties"):
        shape = ["{{ {", *_shape(schema, "", 1), "} | json_body }}"]
    else:
        shape = [f'{{{{ params | field("body", {json.dumps(schema_kind(schema))}) | json_body }}}}']
    return "\n".join(head + shape) + "\n"
