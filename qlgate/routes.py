"""Routes (spec §13.2, §14.2): scripts under ``routes/`` whose ``return`` has a
``via route`` clause, with their path patterns, query maps and defaults.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .errors import QlError, QlSyntaxError
from .lang import ast
from .lang.parser import parse
from .tables.registry import LoadProblem

log = logging.getLogger("qlgate.routes")
_TOKEN = re.compile(r"^\{([\^]?)([A-Za-z$:][A-Za-z0-9_:.]*)\}$")


@dataclass
class Route:
    method: str
    pattern: str
    segments: tuple[tuple[str, str], ...]          # ("lit", text) | ("var", name)
    query: dict[str, tuple[str, bool]]             # key → (variable, required by ^)
    optional_params: bool
    defaults: dict[str, Any]
    script: ast.Script
    source: str
    file: str
    doc: str = ""
    tables: list[str] = field(default_factory=list)

    @property
    def path(self) -> str:
        return urlsplit(self.pattern).path

    def match(self, path: str) -> dict[str, str] | None:
        parts = path.split("/")
        if len(parts) != len(self.segments):
            return None
        bound: dict[str, str] = {}
        for part, (kind, text) in zip(parts, self.segments):
            if kind == "lit":
                if part != text:
                    return None
            else:
                if not part:
                    return None
                bound[text] = part
        return bound

    def required_keys(self) -> list[str]:
        if self.optional_params:
            return [k for k, (_, req) in self.query.items() if req]
        return [k for k, (var, _) in self.query.items() if var not in self.defaults]


def compile_route(script: ast.Script, source: str, file: str) -> Route:
    ret = script.ret
    if ret is None or ret.route is None:
        raise QlError("a route script must end with 'return … via route …'", status=400)
    spec = ret.route
    split = urlsplit(spec.path)
    segments = []
    for part in split.path.split("/"):
        m = _TOKEN.match(part)
        segments.append(("var", m.group(2)) if m else ("lit", part))
    query: dict[str, tuple[str, bool]] = {}
    for pair in filter(None, split.query.split("&")):
        key, _, value = pair.partition("=")
        m = _TOKEN.match(value)
        if not m:
            log.warning("%s: query pair %r is not key={var}; ignored", file, pair)
            continue
        query[key] = (m.group(2), m.group(1) == "^")
    defaults = {}
    for pair in spec.defaults:
        value = pair.value
        if isinstance(value, ast.TextOperand):
            defaults[pair.name] = value.template.raw
        elif isinstance(value, ast.NumberOperand):
            defaults[pair.name] = value.value
        else:
            defaults[pair.name] = value.path.text
    return Route(spec.method, spec.path, tuple(segments), query, spec.optional_params, defaults,
                 script, source, file, ret.doc or _leading_comment(source), tables_used(script))


def _leading_comment(source: str) -> str:
    """A route file's opening ``--`` lines describe the route when its return has no comment of its own."""
    lines = []
    for line in source.lstrip().splitlines():
        if not line.startswith("--"):
            break
        lines.append(line[2:].strip())
    return "\n".join(lines)


def tables_used(script: ast.Script) -> list[str]:
    assigned = set()
    names: list[str] = []

    def walk(items: tuple) -> None:
        for item in items:
            if isinstance(item, ast.Line):
                if item.target:
                    assigned.add(item.target)
                for c in item.choices:
                    visit(c)
            elif isinstance(item, ast.IfBlock):
                walk(item.then)
                walk(item.orelse or ())
            elif isinstance(item, ast.TryBlock):
                walk(item.body)
                for c in item.catches:
                    walk(c.body)
                walk(item.final or ())

    def visit(choice: Any) -> None:
        for source in getattr(choice, "sources", ()) or ():
            names.append(source.name)
        if hasattr(choice, "source"):
            names.append(choice.source.name)
        for cond in getattr(choice, "where", ()) or ():
            if isinstance(cond, ast.InSelectCondition):
                visit(cond.select)

    walk(script.items)
    for c in script.ret.choices if script.ret else ():
        visit(c)
    return sorted({n for n in names if n not in assigned})


def load_routes_dir(directory: str | Path | None) -> tuple[list[Route], list[LoadProblem]]:
    routes: list[Route] = []
    problems: list[LoadProblem] = []
    if directory is None or not Path(directory).is_dir():
        return routes, problems
    seen: dict[tuple, str] = {}
    for file in sorted(Path(directory).rglob("*.ql")):
        rel = str(file)
        try:
            source = file.read_text(encoding="utf-8")
            script = parse(source, origin=rel)
            route = compile_route(script, source, rel)
        except QlSyntaxError as e:
            problems.append(LoadProblem(rel, e.line or 1, e.column or 1, e.message))
            continue
        except QlError as e:
            problems.append(LoadProblem(rel, e.line or 1, e.column or 1, e.message))
            continue
        except (OSError, UnicodeDecodeError) as e:
            problems.append(LoadProblem(rel, 1, 1, f"cannot read: {e}"))
            continue
        identity = (route.method, route.path, frozenset(route.query))
        if identity in seen:
            problems.append(LoadProblem(rel, 1, 1, f"route {route.method} {route.pattern} already defined in "
                                                   f"{seen[identity]}"))
            continue
        seen[identity] = rel
        routes.append(route)
    return routes, problems


def select_route(routes: list[Route], method: str, path: str,
                 query: dict[str, Any]) -> tuple[Route, dict[str, str]] | None:
    """§14.2.2: among routes matching method and path, drop those missing a
    required parameter, then prefer the one naming most of the given ones."""
    best: tuple[int, int, Route, dict] | None = None
    for index, route in enumerate(routes):
        if route.method != method.lower():
            continue
        bound = route.match(path)
        if bound is None:
            continue
        if any(k not in query for k in route.required_keys()):
            continue
        score = sum(1 for k in route.query if k in query)
        if best is None or score > best[0]:
            best = (score, index, route, bound)
    return (best[2], best[3]) if best else None


def path_exists(routes: list[Route], path: str) -> bool:
    return any(r.match(path) is not None for r in routes)
