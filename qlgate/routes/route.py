"""One route: its path pattern split into literal and variable segments, its
query map (``key={var}``, ``{^var}`` required), its defaults, the paths of its
answer that are always arrays (``with arrays``, ``qlgate.tables.shapes``), and
the tables its script reads (the jobs side derives a job's partner-API types
from them).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..errors import QlError
from ..lang import ast
from ..lang.walk import walk
from ..tables.shapes import ArrayPaths

log = logging.getLogger("qlgate.routes")
_TOKEN = re.compile(r"^\{([\^]?)([A-Za-z$:][A-Za-z0-9_:.]*)\}$")


@dataclass
class Route:
    method: str
    pattern: str
    segments: tuple[tuple[str, str], ...]  # ("lit", text) | ("var", name)
    query: dict[str, tuple[str, bool]]  # key → (variable, required by ^)
    optional_params: bool
    defaults: dict[str, Any]
    script: ast.Script
    source: str
    file: str
    doc: str = ""
    tables: list[str] = field(default_factory=list)
    arrays: ArrayPaths | None = None  # ``with arrays 'items', …``: paths of its answer always arrays

    def shape(self, value: Any) -> Any:
        """The route's answer with the paths it declares as lists always arrays (one
        item or many, the client sees one shape; ``qlgate.tables.shapes``)."""
        return self.arrays.apply(value) if self.arrays else value

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
    defaults: dict[str, Any] = {}
    for default in spec.defaults:
        operand = default.value
        if isinstance(operand, ast.TextOperand):
            defaults[default.name] = operand.template.raw
        elif isinstance(operand, ast.NumberOperand):
            defaults[default.name] = operand.value
        else:
            defaults[default.name] = operand.path.text
    return Route(
        spec.method,
        spec.path,
        tuple(segments),
        query,
        spec.optional_params,
        defaults,
        script,
        source,
        file,
        ret.doc or _leading_comment(source),
        tables_used(script),
        ArrayPaths.compile(spec.arrays, line=spec.pos.line) if spec.arrays else None,
    )


def _leading_comment(source: str) -> str:
    """A route file's opening ``--`` lines describe the route when its return has no comment of its own."""
    lines = []
    for line in source.lstrip().splitlines():
        if not line.startswith("--"):
            break
        lines.append(line[2:].strip())
    return "\n".join(lines)


def tables_used(script: ast.Script) -> list[str]:
    """The tables a route reads or writes: every source its statements name, nested
    selects included, less the variables it assigns."""
    assigned = {node.target for node in walk(script.items) if isinstance(node, ast.Line) and node.target}
    return sorted({node.name for node in walk(script) if isinstance(node, ast.Source)} - assigned)
