"""One parse per shape: the AST of a script rebuilt from the AST of another with the
same shape (``lift``), in microseconds instead of a parse.

``ShapeTemplate.learn`` parses the shape once with a sentinel in place of each lifted
literal, then finds every node the literals reach: the operand each became, the
positions after them on their line (their columns move when a value is longer or
shorter), the statement texts that quote them, and the script's source. Everything
else is shared as it is between the two ASTs (nodes are frozen). ``build`` makes
only the nodes that differ.

The scan behind ``lift`` is a guess, so ``learn`` refuses (``NotReusable``) unless
each sentinel became exactly one operand and appears nowhere else, no ``create
table`` moves, and the AST it builds for the script at hand equals the parser's own
AST of it. The parser reads a lifted literal as one token of the same kind whatever
its content (``lift`` lifts no quote, brace, backslash or line break), so what holds
for one script of a shape holds for every one.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Callable
from typing import Any

from ..errors import QlSyntaxError
from . import ast
from .lift import Lifted
from .templates import Template, parse_template

_MARK = "\ue000"  # a private-use character: sentinels hold it, a script that does is not reused
_NUMBER_BASE = 7_301_946_000_000_000

Builder = Callable[["_Fill"], Any]


class NotReusable(Exception):
    """The shape's literals are not all plain ``where`` operands: key by the text."""


class _Fill:
    """What one ``build`` fills in: the values and how far each literal moved; and
    what it made: id of the shape's node or tuple → the script's (``made``)."""

    __slots__ = ("made", "moved", "source", "values")

    def __init__(self, values: tuple[str, ...], source: str, moved: list[int]):
        self.values, self.source, self.moved = values, source, moved
        self.made: dict[int, Any] = {}


class ShapeTemplate:
    """The AST of one shape, with a builder for the parts its literals reach."""

    __slots__ = ("_build", "_ends", "shape")

    def __init__(self, build: Builder, ends: tuple[int, ...], shape: ast.Script):
        # ``shape``: the sentinel AST, kept alive so that the ids ``made`` maps stay its own
        self._build, self._ends, self.shape = build, ends, shape

    @classmethod
    def learn(
        cls, lifted: Lifted, script: str, parsed: ast.Script, parse: Callable[[str], ast.Script]
    ) -> ShapeTemplate:
        """The template of ``script``'s shape, checked against ``parsed`` (its AST).
        Raises NotReusable."""
        if _MARK in script:
            raise NotReusable("the script holds the sentinel character")
        base = _NUMBER_BASE
        while str(base)[:8] in script:
            base += 10_000_000_000
        sentinels, pieces, spans, start = [], [], [], 0
        for i, ((begin, end), kind) in enumerate(zip(lifted.spans, lifted.kinds, strict=True)):
            text = f"{_MARK}{i:x}{_MARK}" if kind != "n" else str(base + i)
            written = text if kind == "n" else kind + text + kind
            pieces.append(script[start:begin])
            at = sum(len(p) for p in pieces)
            spans.append((at, at + len(written)))
            pieces.append(written)
            sentinels.append(text)
            start = end
        pieces.append(script[start:])
        skeleton = "".join(pieces)
        learner = _Learner(skeleton, spans, sentinels, lifted.kinds)
        try:
            shared = parse(skeleton)
        except QlSyntaxError:
            raise NotReusable("a sentinel does not parse where the literal stood") from None
        build = learner.node(shared) or _const(shared)
        missing = [i for i, n in enumerate(learner.found) if n != 1]
        if missing:
            raise NotReusable(f"literal {missing[0]} is not one plain operand")
        template = cls(build, tuple(end for _, end in spans), shared)
        if template.build(lifted, script)[0] != parsed:
            raise NotReusable("the rebuilt AST differs from the parsed one")
        return template

    def build(self, lifted: Lifted, script: str) -> tuple[ast.Script, dict[int, Any]]:
        """The AST of ``script``, whose shape this template's is (``lifted`` is its lift),
        and what it made in place of the nodes of ``shape`` (by their ids)."""
        # moved[i]: how far the text after literal i moved (all text between literals is the shape's)
        moved = [end - end_here for (_, end), end_here in zip(lifted.spans, self._ends, strict=True)]
        fill = _Fill(lifted.values, script, moved)
        return self._build(fill), fill.made


def _const(value: Any) -> Builder:
    return lambda fill: value


class _Learner:
    """Walks the sentinel AST once and returns, per node, None (shared as it is) or a
    builder of the node for given values."""

    def __init__(self, skeleton: str, spans: list[tuple[int, int]], sentinels: list[str], kinds: str):
        self.skeleton = skeleton
        self.ends = [end for _, end in spans]
        self.text_slot = {s: i for i, (s, k) in enumerate(zip(sentinels, kinds, strict=True)) if k != "n"}
        self.number_slot = {int(s): i for i, (s, k) in enumerate(zip(sentinels, kinds, strict=True)) if k == "n"}
        self.found = [0] * len(sentinels)
        self.line_starts = [0]
        for index, char in enumerate(skeleton):
            if char == "\n":
                self.line_starts.append(index + 1)

    # -- offsets
    def offset(self, pos: ast.Pos) -> int:
        return self.line_starts[pos.line - 1] + pos.column - 1

    def before(self, offset: int) -> int:
        """How many literals end at or before ``offset``: the last of them says how far it moves."""
        return bisect.bisect_right(self.ends, offset)

    # -- nodes
    def node(self, value: Any) -> Builder | None:
        kind = type(value)
        if kind is ast.TextOperand and value.template.raw in self.text_slot:
            return self._text(self.text_slot[value.template.raw])
        if kind is ast.NumberOperand and type(value.value) is int and value.value in self.number_slot:
            return self._number(self.number_slot[value.value])
        if kind is ast.Pos:
            return self._pos(value)
        if kind is str:
            if _MARK in value:
                raise NotReusable("a lifted literal reached a string that is not an operand")
            return None
        if kind is int:
            if value in self.number_slot:
                raise NotReusable("a lifted number reached a value that is not an operand")
            return None
        if kind is tuple or kind is list:
            return self._sequence(value)
        if kind is dict:
            if any(self.node(k) or self.node(v) for k, v in value.items()):
                raise NotReusable("a lifted literal reached a JSON value")
            return None
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return self._dataclass(value)
        return None

    def _text(self, slot: int) -> Builder:
        self.found[slot] += 1
        return lambda fill: ast.TextOperand(parse_template(fill.values[slot]))

    def _number(self, slot: int) -> Builder:
        self.found[slot] += 1
        return lambda fill: ast.NumberOperand(int(fill.values[slot]))

    def _pos(self, pos: ast.Pos) -> Builder | None:
        at = self.offset(pos)
        count = self.before(at)
        line_start = self.line_starts[pos.line - 1]
        if count == 0 or self.ends[count - 1] <= line_start:
            return None  # no literal before it on its line
        line, column, moved_by, moved_to = pos.line, pos.column, count - 1, self._line_shift(line_start)
        return lambda fill: ast.Pos(line, column + fill.moved[moved_by] - moved_to(fill))

    def _line_shift(self, line_start: int) -> Callable[[_Fill], int]:
        """How far the start of the line at ``line_start`` moved (no literal spans lines)."""
        count = self.before(line_start)
        if count == 0:
            return lambda fill: 0
        index = count - 1
        return lambda fill: fill.moved[index]

    def _sequence(self, items: tuple[Any, ...] | list[Any]) -> Builder | None:
        parts = [self.node(item) for item in items]
        if not any(parts):
            return None
        if type(items) is list:
            raise NotReusable("a lifted literal reached a JSON value")
        plan = tuple((b, item) for b, item in zip(parts, items, strict=True))
        old = id(items)

        def sequence(fill: _Fill) -> tuple[Any, ...]:
            made = fill.made[old] = tuple([item if b is None else b(fill) for b, item in plan])
            return made

        return sequence

    def _dataclass(self, value: Any) -> Builder | None:
        if isinstance(value, Template):
            if _MARK in value.raw:
                raise NotReusable("a lifted literal reached quoted text that is not an operand")
            return None
        names = [f.name for f in dataclasses.fields(value)]
        parts: list[Builder | None] = []
        for name in names:
            field_value = getattr(value, name)
            if name == "text" and "pos" in names and isinstance(field_value, str):
                parts.append(self._slice(self.offset(value.pos), field_value))
            elif name == "source" and type(value) is ast.Script:
                parts.append(lambda fill: fill.source)
            else:
                parts.append(self.node(field_value))
        if not any(parts):
            return None
        if isinstance(value, ast.CreateTable):
            raise NotReusable("a create table moves with a lifted literal")
        cls = type(value)
        plan = tuple((b, getattr(value, name)) for b, name in zip(parts, names, strict=True))
        old = id(value)

        def node(fill: _Fill) -> Any:
            made = fill.made[old] = cls(*[v if b is None else b(fill) for b, v in plan])
            return made

        return node

    def _slice(self, start: int, text: str) -> Builder | None:
        """A statement's text: the same slice of the new script, its ends moved."""
        end = start + len(text)
        if self.skeleton[start:end] != text:
            raise NotReusable("a statement's text is not where its position says")
        first, last = self.before(start) - 1, self.before(end) - 1
        if last < 0:
            return None
        if first < 0:
            return lambda fill: fill.source[start : end + fill.moved[last]]
        return lambda fill: fill.source[start + fill.moved[first] : end + fill.moved[last]]
