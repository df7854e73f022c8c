"""What the describe pages say about tables and routes: ``describe``, ``show
tables``, ``show routes`` and ``describe route`` (spec §4.10), ``qlgate describe``
and the gateway's metadata pages all read it from here. Secrets in defaults and
headers are masked.

It belongs with the tables: it reads a table's mappings (its URI tokens,
defaults, headers, body) and a route's pattern, and runs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

from ..lang.templates import Template
from .markdown import doc_html
from .model import Table

if TYPE_CHECKING:  # annotations only
    from ..config import Secrets


class Route(Protocol):
    """What the describe pages read of a route (``qlgate.routes.Route``, a layer above
    the tables: the routes use tables, so the tables name no route of theirs)."""

    @property
    def pattern(self) -> str: ...
    @property
    def method(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def doc(self) -> str: ...
    @property
    def tables(self) -> list[str]: ...
    @property
    def segments(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def query(self) -> dict[str, tuple[str, bool]]: ...
    def match(self, path: str) -> dict[str, str] | None: ...


def table_summary(table: Table) -> dict[str, Any]:
    return {"name": table.name, "about": "/table?name=" + quote(table.name, safe=""), "info": doc_html(table.doc)}


def _value_text(value: Any, secrets: Secrets) -> Any:
    if isinstance(value, Template):
        return secrets.mask(value.raw)
    return secrets.mask_value(value)


def describe_table(table: Table, routes: Sequence[Route], secrets: Secrets) -> dict[str, Any]:
    out = table_summary(table)
    out["example"] = table_example(table)
    out["routes"] = [
        f"/route?path={quote(r.pattern, safe='')}&method={r.method}" for r in routes if table.name in r.tables
    ]
    for kind, mapping in table.mappings.items():
        params = []
        for token in mapping.uri.tokens:
            name = token.body.raw
            default = mapping.defaults.get(name)
            entry = {
                "name": name,
                "required": token.required,
                "multivalued": token.multi,
                "max": token.max_values,
                "merge": "block" if token.block else "field",
                "encode": not token.no_encode,
            }
            if default is not None:
                entry["default"] = _value_text(default, secrets)
            params.append(entry)
        described: dict[str, Any] = {
            "method": mapping.method,
            "uri": secrets.mask(mapping.uri.raw),
            "params": params,
            "defaults": {k: _value_text(v, secrets) for k, v in mapping.defaults.items()},
            "headers": {secrets.mask(n.raw): secrets.mask(v.raw) for n, v in mapping.headers},
        }
        if mapping.resultset:
            described["resultset"] = mapping.resultset
        if mapping.body is not None:
            described["body"] = {
                "type": mapping.body.media_type,
                "content": mapping.body.source,
                "template": mapping.body.file,
            }
            if mapping.body.foreach:
                described["body"]["foreach"] = mapping.body.foreach
        if mapping.patch is not None:
            described["patch"] = mapping.patch.file
        if mapping.credential is not None:
            described["auth"] = mapping.credential  # the config entry's name: its tokens are never shown
        out[kind] = described
    return out


_EXAMPLE_LINE = re.compile(r"^Example:\s*(.+)$", re.M)
_COLUMNS_LINE = re.compile(r"^Columns:\s*([\w.]+)", re.M)
_PLACEHOLDER = "…"


def declared_example(table: Table) -> str | None:
    """The table's own ``Example:`` line, if it has one (``qlgate probe`` runs it)."""
    found = _EXAMPLE_LINE.search(table.doc)
    return found.group(1).strip() if found else None


def table_example(table: Table) -> str:
    """A script to start from (the console's "try it"): the table's own ``Example:``
    comment line, else its first verb with every required parameter that has no
    default written out for the user to fill in."""
    found = _EXAMPLE_LINE.search(table.doc)
    if found:
        return found.group(1).strip()
    verb = "select" if "select" in table.mappings else next(iter(table.mappings), "select")
    mapping = table.mappings.get(verb)
    required = (
        []
        if mapping is None
        else list(
            dict.fromkeys(
                t.body.raw
                for t in mapping.uri.tokens
                if t.required and t.body.raw not in mapping.defaults and not t.body.raw.startswith("config.")
            )
        )
    )
    where = " where " + " and ".join(f'{name} = "{_PLACEHOLDER}"' for name in required) if required else ""
    if verb == "insert":
        listed = _COLUMNS_LINE.search(table.doc)
        columns = required or ([listed.group(1).split(",")[0].strip()] if listed else ["name"])
        values = ", ".join(f'"{_PLACEHOLDER}"' for _ in columns)
        return f"insert into {table.name} ({', '.join(columns)}) values ({values})"
    if verb == "update":
        return f'update {table.name} set name = "{_PLACEHOLDER}"{where}'
    if verb == "delete":
        return f"delete from {table.name}{where}"
    return f"select * from {table.name}{where}"


def route_example(route: Route) -> str:
    """A request to try the route with: a path in its comment that the route
    matches (``/ebay/items/230851234561``), else its pattern with required
    values left to fill in and optional ones dropped."""
    for candidate in re.findall(r"(/[^\s;)]+)", route.doc):
        candidate = candidate.rstrip(".,")
        if route.match(candidate.split("?", 1)[0]) is not None:
            return candidate
    path = "/".join(f"{{{text}}}" if kind == "var" else text for kind, text in route.segments) or "/"
    query = "&".join(f"{key}={{{var}}}" for key, (var, required) in route.query.items() if required)
    return path + ("?" + query if query else "")


def route_summary(route: Route) -> dict[str, Any]:
    return {
        "path": route.pattern,
        "method": route.method,
        "about": f"/route?path={quote(route.pattern, safe='')}&method={route.method}",
        "info": doc_html(route.doc),
    }


def describe_route(route: Route, routes: Sequence[Route]) -> dict[str, Any]:
    out = route_summary(route)
    out["example"] = route_example(route)
    out["tables"] = ["/table?name=" + quote(t, safe="") for t in route.tables]
    out["related"] = [
        f"/route?path={quote(r.pattern, safe='')}&method={r.method}"
        for r in routes
        if r.path == route.path and r.method != route.method
    ]
    return out
