"""Paths: the JSONPath subset of spec §2.4/§5.4, parsed once and evaluated on
JSON values.

A parsed path is a tuple of steps. ``evaluate`` returns every match and
whether the path is *multi-valued* (uses ``..``, ``*`` or a filter), because
the spec shapes results differently for the two: a plain path yields its one
match, a multi-valued path always yields an array.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import QlError
from ..values import MISSING
from .filters import FilterExpr, parse_filter


@dataclass(frozen=True, slots=True)
class Member:
    name: str


@dataclass(frozen=True, slots=True)
class Index:
    index: int


@dataclass(frozen=True, slots=True)
class Wildcard:
    pass


@dataclass(frozen=True, slots=True)
class Descendant:
    name: str | None  # None: every descendant value (``..*``)


@dataclass(frozen=True, slots=True)
class Filter:
    expr: FilterExpr


@dataclass(frozen=True, slots=True)
class Computed:
    expr: FilterExpr


Step = Member | Index | Wildcard | Descendant | Filter | Computed


@dataclass(frozen=True, slots=True)
class Path:
    text: str
    steps: tuple[Step, ...]
    rooted: bool = False  # began with ``$``: the value itself, never mapped over
    multi: bool = field(init=False, compare=False)  # uses .., * or a filter
    has_descendant: bool = field(init=False, compare=False)
    keys: tuple[str, ...] | None = field(init=False, compare=False)  # only member steps: a fast walk

    def __post_init__(self) -> None:
        steps = self.steps
        object.__setattr__(self, "multi", any(isinstance(s, (Wildcard, Descendant, Filter)) for s in steps))
        object.__setattr__(self, "has_descendant", any(isinstance(s, Descendant) for s in steps))
        names = tuple(s.name for s in steps if isinstance(s, Member))
        object.__setattr__(self, "keys", names if len(names) == len(steps) else None)

    @property
    def head(self) -> str | None:
        """The first member name (an alias or variable name in many positions)."""
        if self.steps and isinstance(self.steps[0], Member):
            return self.steps[0].name
        return None

    def without_head(self) -> Path:
        """The path after its first member (``s['x-y'].z`` → ``['x-y'].z``)."""
        head = self.head or ""
        rest = self.text[len(head) :] if self.text.startswith(head) else ""
        return Path(
            rest[1:] if rest.startswith(".") and not rest.startswith("..") else rest, self.steps[1:], self.rooted
        )

    def __str__(self) -> str:
        return self.text


class PathSyntaxError(ValueError):
    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


_NAME = re.compile(r"[A-Za-z0-9_$:@\-]+")
_INT = re.compile(r"\d+")


def _read_quoted(text: str, i: int) -> tuple[str, int]:
    quote = text[i]
    end = text.find(quote, i + 1)
    if end < 0:
        raise PathSyntaxError("unterminated quoted name", i)
    return text[i + 1 : end], end + 1


def _read_bracket_expr(text: str, i: int) -> tuple[str, int]:
    """Read ``(expr)`` starting at ``(``; a quoted expression is unquoted."""
    depth, j = 0, i
    quote = None
    while j < len(text):
        c = text[j]
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                inner = text[i + 1 : j].strip()
                if len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "'\"":
                    inner = inner[1:-1]
                return inner, j + 1
        j += 1
    raise PathSyntaxError("unterminated expression", i)


@lru_cache(maxsize=4096)
def parse_path(text: str) -> Path:
    """Parse ``a.b[0]['x-y']..c`` (no leading ``$.`` needed) into steps."""
    steps: list[Step] = []
    i, n = 0, len(text)
    rooted = False
    if text.startswith("$"):
        rooted = True
        i = 1
        if i < n and text[i] == "." and not text.startswith("..", i):
            i += 1
    first = True
    while i < n:
        c = text[i]
        if c == ".":
            if text.startswith("..", i):
                i += 2
                if i < n and text[i] == "*":
                    steps.append(Descendant(None))
                    i += 1
                    continue
                if i < n and text[i] == "[":
                    steps.append(Descendant(None))
                    continue
                m = _NAME.match(text, i)
                if not m:
                    raise PathSyntaxError("expected a name after '..'", i)
                steps.append(Descendant(m.group()))
                i = m.end()
                continue
            i += 1
            if i < n and text[i] == "*":
                steps.append(Wildcard())
                i += 1
                continue
            m = _NAME.match(text, i)
            if not m:
                raise PathSyntaxError("expected a name after '.'", i)
            steps.append(Member(m.group()))
            i = m.end()
        elif c == "[":
            i += 1
            if i >= n:
                raise PathSyntaxError("unterminated '['", i - 1)
            c = text[i]
            if c == "*":
                steps.append(Wildcard())
                i += 1
            elif c in "'\"":
                name, i = _read_quoted(text, i)
                steps.append(Member(name))
            elif c == "?":
                if i + 1 >= n or text[i + 1] != "(":
                    raise PathSyntaxError("expected '(' after '?'", i)
                expr, i = _read_bracket_expr(text, i + 1)
                steps.append(Filter(parse_filter(expr)))
            elif c == "(":
                expr, i = _read_bracket_expr(text, i)
                steps.append(Computed(parse_filter(expr)))
            else:
                m = _INT.match(text, i)
                if not m:
                    raise PathSyntaxError("expected an index, '*', a quoted name or a filter", i)
                steps.append(Index(int(m.group())))
                i = m.end()
            if i >= n or text[i] != "]":
                raise PathSyntaxError("expected ']'", i)
            i += 1
        elif first and c in "'\"":
            name, i = _read_quoted(text, i)
            steps.append(Member(name))
        elif first:
            m = _NAME.match(text, i)
            if not m:
                raise PathSyntaxError(f"unexpected character {c!r}", i)
            steps.append(Member(m.group()))
            i = m.end()
        else:
            raise PathSyntaxError(f"unexpected character {c!r}", i)
        first = False
    return Path(text, tuple(steps), rooted)


MAX_VISITS = 1_000_000  # nodes one path evaluation may visit


class PathTooCostly(QlError):
    """A path that would visit more than MAX_VISITS nodes: ``..`` or ``*`` over a value
    whose parts a script shared many times (a tree of millions of nodes in a few lines)."""

    status = 400


class _Visits:
    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = MAX_VISITS

    def spend(self, count: int) -> None:
        self.left -= count
        if self.left < 0:
            raise PathTooCostly(f"a path visits more than {MAX_VISITS:,} values")


def _descend(node: Any, name: str | None, visits: _Visits) -> Iterator[Any]:
    visits.spend(1)
    if isinstance(node, dict):
        if name is None:
            for value in node.values():
                yield value
                yield from _descend(value, None, visits)
            return
        if name in node:
            yield node[name]
        for value in node.values():
            if isinstance(value, (dict, list)):
                yield from _descend(value, name, visits)
    elif isinstance(node, list):
        for value in node:
            if name is None:
                yield value
            if isinstance(value, (dict, list)):
                yield from _descend(value, name, visits)


def _apply(step: Step, node: Any, out: list, visits: _Visits) -> None:
    if isinstance(step, Member):
        if isinstance(node, dict):
            value = node.get(step.name, MISSING)
            if value is not MISSING:
                out.append(value)
        elif isinstance(node, list) and step.name == "length":
            out.append(len(node))
    elif isinstance(step, Index):
        if isinstance(node, list) and step.index < len(node):
            out.append(node[step.index])
    elif isinstance(step, Wildcard):
        if isinstance(node, list):
            out.extend(node)
        elif isinstance(node, dict):
            out.extend(node.values())
    elif isinstance(step, Descendant):
        out.extend(_descend(node, step.name, visits))
    elif isinstance(step, Filter):
        items = node if isinstance(node, list) else list(node.values()) if isinstance(node, dict) else []
        out.extend(item for item in items if step.expr.test(item))
    elif isinstance(step, Computed):
        key = step.expr.evaluate(node)
        if isinstance(node, list) and isinstance(key, (int, float)) and not isinstance(key, bool):
            if isinstance(key, float) and not math.isfinite(key):
                return
            k = int(key)
            if -len(node) <= k < len(node):
                out.append(node[k])
        elif isinstance(node, dict) and isinstance(key, str) and key in node:
            out.append(node[key])


def matches(path: Path, value: Any) -> list[Any]:
    """Every value the path selects, in document order."""
    current = [value]
    visits = _Visits()
    for step in path.steps:
        nxt: list[Any] = []
        for node in current:
            _apply(step, node, nxt, visits)
        visits.spend(len(nxt))
        current = nxt
        if not current:
            break
    return current


def evaluate(path: Path, value: Any) -> Any:
    """Spec §5.4/§8.5 shape: one match → the value; multi-valued path → array
    (``..`` results flattened one level), or missing when nothing matched."""
    if value is MISSING:
        return MISSING
    keys = path.keys
    if keys is not None:
        for key in keys:
            if type(value) is not dict:
                return len(value) if key == "length" and isinstance(value, list) else MISSING
            value = value.get(key, MISSING)
            if value is MISSING:
                return MISSING
        return value
    found = matches(path, value)
    if path.multi:
        if not found:
            return MISSING
        if path.has_descendant:
            flat: list[Any] = []
            for item in found:
                if isinstance(item, list):
                    flat.extend(item)
                else:
                    flat.append(item)
            return flat
        return found
    if not found:
        return MISSING
    return found[0]


def resultset(value: Any, spec: str) -> Any:
    """Spec §8.4: dotted steps; the first element of an array met *between* steps."""
    if not spec:
        return value
    parts = spec.split(".")
    current = value
    for part in parts:
        if isinstance(current, list):
            if not current:
                return []
            current = current[0]
        if not isinstance(current, dict) or part not in current:
            return []
        current = current[part]
    return current
