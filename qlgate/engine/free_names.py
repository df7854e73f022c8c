"""Names a script reads but neither assigns nor is given: ``"{nme}"`` where the
script assigns ``name``, or a ``{keywords}`` no ``--var`` and no route input
supplies. At run time such a token is silently ``null`` (a variable may come
from the request), so ``qlgate run`` warns (``--strict`` refuses) and
``qlgate check`` reports them for routes, each with the nearest assigned or
given name.

Only the script's own statements count: the templates of a ``create table``
keep ql.io's meaning (``{x}`` an optional parameter, ``{^x}`` a required one)
and a route's pattern declares inputs rather than reading them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..lang import ast
from ..lang.templates import Template
from ..lang.walk import walk
from ..suggest import nearest

ALWAYS_KNOWN = frozenset({"config"})  # the config, readable by every script


@dataclass(frozen=True)
class Unassigned:
    """A name read at ``line``:``column`` that nothing assigns or gives."""

    name: str
    line: int
    column: int
    suggestion: str | None

    def message(self, given: str) -> str:
        """``given``: what could have supplied it (``no --var``, ``not an input of the route``)."""
        hint = f"; did you mean '{self.suggestion}'?" if self.suggestion else ""
        return f"'{self.name}' is never assigned and {given}{hint}"


def _statements(script: ast.Script) -> Iterator[Any]:
    """Every line and the return of ``script``, inside blocks too."""

    def into(node: Any) -> bool:
        return not isinstance(node, (ast.Line, ast.Return, ast.CreateTable))

    for node in walk(list(script.items), into=into):
        if isinstance(node, ast.Line):
            yield node
    if script.ret is not None:
        yield script.ret


def read_names(script: ast.Script) -> Iterator[tuple[str, ast.Pos]]:
    """Each variable a statement reads through a token or a bare reference, with
    the statement's position; table definitions are not looked into."""

    def into(node: Any) -> bool:
        return not isinstance(node, ast.CreateTable)

    found: list[tuple[str, ast.Pos]] = []
    for node in walk(list(script.items), into=into):  # an if's condition reads its variables too
        if isinstance(node, ast.IfBlock):
            found += [(c.name, node.pos) for c in walk(node.cond) if isinstance(c, ast.CondVar)]
    for statement in _statements(script):
        for node in walk(list(statement.choices), into=into):  # a return's route is not a choice
            if isinstance(node, Template):
                found += [(name, statement.pos) for name in sorted(node.names())]
            elif isinstance(node, ast.VarRef):
                found.append((node.name, statement.pos))
    found.sort(key=lambda item: (item[1].line, item[1].column))  # stable: a statement's names keep their order
    yield from found


def unassigned(script: ast.Script, assigned: Iterable[str], given: Iterable[str]) -> list[Unassigned]:
    """The names ``script`` reads that are neither in ``assigned`` nor ``given``,
    first reading of each, in script order."""
    known = set(assigned) | set(given) | ALWAYS_KNOWN
    candidates = sorted(known - ALWAYS_KNOWN)
    lines = script.source.split("\n")
    out: list[Unassigned] = []
    seen: set[str] = set()
    for name, pos in read_names(script):
        if name in known or name in seen:
            continue
        seen.add(name)
        line, column = _locate(lines, name, pos)
        out.append(Unassigned(name, line, column, _nearest(name, candidates)))
    return out


def _locate(lines: list[str], name: str, pos: ast.Pos) -> tuple[int, int]:
    """Where the token reading ``name`` is written, from the statement's start on
    (the statement's own position when it is not found)."""
    pattern = re.compile(r"\{[\^#|`0-9]*" + re.escape(name) + r"(?![A-Za-z0-9_:$])")
    first = max(pos.line - 1, 0)
    for index in range(first, len(lines)):
        start = pos.column - 1 if index == first else 0
        found = pattern.search(lines[index], max(start, 0))
        if found:
            return index + 1, found.start() + 1
    return pos.line, pos.column


def _nearest(name: str, candidates: list[str]) -> str | None:
    return nearest(name, candidates, cutoff=0.6)
