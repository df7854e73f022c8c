"""The small expression language of path filters (``[?(@.price > 2)]``) and
computed indexes (``[(@.length-1)]``), spec §5.4.

ql.io evaluated these as JavaScript; qlgate evaluates a closed language
instead so a script can never run code: ``@`` with member/index access,
literals, comparisons, ``&& || !``, ``+ -`` and parentheses.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..values import MISSING, loose_equals, truthy

_TOKEN = re.compile(
    r"""\s*(?:
    (?P<num>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<str>'[^']*'|"[^"]*")
  | (?P<op>===|!==|==|!=|<=|>=|&&|\|\||[<>!+\-()\[\].@])
  | (?P<name>[A-Za-z_$][A-Za-z0-9_$]*)
)""",
    re.VERBOSE,
)


class FilterSyntaxError(ValueError):
    pass


MAX_DEPTH = 64  # brackets, parentheses and prefix operators in a row: the parser recurses on each


def _tokenize(text: str) -> list[tuple[str, str]]:
    tokens, i = [], 0
    text = text.rstrip()
    depth = prefix = 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if not m or m.end() == i:
            raise FilterSyntaxError(f"unexpected {text[i : i + 10]!r} in filter {text[:60]!r}")
        kind = m.lastgroup or ""
        value = m.group(kind)
        depth += 1 if value in ("(", "[") else -1 if value in (")", "]") else 0
        prefix = prefix + 1 if value in ("!", "-") else 0
        if depth > MAX_DEPTH or prefix > MAX_DEPTH:
            raise FilterSyntaxError(f"filter {text[:60]!r} is nested more than {MAX_DEPTH} deep")
        tokens.append((kind, value))
        i = m.end()
    return tokens


def _index(key: Any) -> int | None:
    """A number used as an index, if it is one (not NaN, not infinite, not a bool)."""
    if isinstance(key, bool) or not isinstance(key, (int, float)):
        return None
    if isinstance(key, float) and not math.isfinite(key):
        return None
    return int(key)


Node = Callable[[Any], Any]


def _compare(op: str, a: Any, b: Any) -> bool:
    if op == "==":
        return loose_equals(a, b)
    if op == "!=":
        return not loose_equals(a, b)
    if op == "===":
        return (a is not MISSING and type(a) is type(b) and a == b) or (
            isinstance(a, (int, float))
            and isinstance(b, (int, float))
            and not isinstance(a, bool)
            and not isinstance(b, bool)
            and a == b
        )
    if op == "!==":
        return not _compare("===", a, b)
    try:
        if isinstance(a, str) and isinstance(b, str):
            pass
        else:
            a, b = float(a), float(b)
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    except (TypeError, ValueError):
        return False


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], text: str):
        self.tokens, self.pos, self.text = tokens, 0, text

    def peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        if self.pos >= len(self.tokens):
            raise FilterSyntaxError(f"unexpected end of filter {self.text!r}")
        tok = self.tokens[self.pos]
        if value is not None and tok[1] != value:
            raise FilterSyntaxError(f"expected {value!r} in filter {self.text!r}")
        self.pos += 1
        return tok

    def parse(self) -> Node:
        node = self.or_()
        if self.pos != len(self.tokens):
            raise FilterSyntaxError(f"unexpected {self.peek()!r} in filter {self.text!r}")
        return node

    def or_(self) -> Node:
        left = self.and_()
        while self.peek() == "||":
            self.take()
            left = _either(left, self.and_())
        return left

    def and_(self) -> Node:
        left = self.cmp()
        while self.peek() == "&&":
            self.take()
            left = _both(left, self.cmp())
        return left

    def cmp(self) -> Node:
        left = self.add()
        if self.peek() in ("==", "!=", "===", "!==", "<", "<=", ">", ">="):
            op = self.take()[1]
            return _comparison(op, left, self.add())
        return left

    def add(self) -> Node:
        left = self.unary()
        while self.peek() in ("+", "-"):
            op = self.take()[1]
            left = _arithmetic(op, left, self.unary())
        return left

    def unary(self) -> Node:
        if self.peek() == "!":
            self.take()
            return _negation(self.unary())
        if self.peek() == "-":
            self.take()
            return _arithmetic("-", _constant(0), self.unary())
        return self.postfix(self.primary())

    def primary(self) -> Node:
        kind, value = self.take()
        if value == "(":
            node = self.or_()
            self.take(")")
            return node
        if value == "@":
            return _current
        if kind == "num":
            try:
                number = float(value) if any(c in value for c in ".eE") else int(value)
            except ValueError:  # more digits than Python converts
                raise FilterSyntaxError(f"number {value[:30]}… in filter is too long") from None
            return _constant(number)
        if kind == "str":
            return _constant(value[1:-1])
        if kind == "name" and value in ("true", "false", "null"):
            return _constant({"true": True, "false": False, "null": None}[value])
        raise FilterSyntaxError(f"unexpected {value!r} in filter {self.text!r}")

    def postfix(self, node: Node) -> Node:
        while self.peek() in (".", "["):
            if self.take()[1] == ".":
                node = _member_of(node, _constant(self.take()[1]))
            else:
                key = self.or_()
                self.take("]")
                node = _member_of(node, key)
        return node


# ------------------------------------------------------------------ the nodes a filter compiles to:
# closures over their operands, so evaluating a filter is plain calls


def _current(value: Any) -> Any:
    return value


def _constant(constant: Any) -> Node:
    def node(_value: Any) -> Any:
        return constant

    return node


def _either(first: Node, second: Node) -> Node:
    """``a || b``: the first operand if truthy, else the second (JavaScript's rule)."""

    def node(value: Any) -> Any:
        left = first(value)
        return left if truthy(left) else second(value)

    return node


def _both(first: Node, second: Node) -> Node:
    """``a && b``: the second operand if the first is truthy, else the first."""

    def node(value: Any) -> Any:
        left = first(value)
        return second(value) if truthy(left) else left

    return node


def _comparison(op: str, first: Node, second: Node) -> Node:
    def node(value: Any) -> Any:
        return _compare(op, first(value), second(value))

    return node


def _arithmetic(op: str, first: Node, second: Node) -> Node:
    def node(value: Any) -> Any:
        return _arith(op, first(value), second(value))

    return node


def _negation(inner: Node) -> Node:
    def node(value: Any) -> Any:
        return not truthy(inner(value))

    return node


def _member_of(inner: Node, key: Node) -> Node:
    def node(value: Any) -> Any:
        return _member(inner(value), key(value))

    return node


def _member(value: Any, key: Any) -> Any:
    if isinstance(value, dict):
        return value.get(key, MISSING) if isinstance(key, str) else MISSING
    if isinstance(value, (list, str)):
        if key == "length":
            return len(value)
        index = _index(key)
        if index is not None and 0 <= index < len(value):
            return value[index]
    return MISSING


def _arith(op: str, a: Any, b: Any) -> Any:
    if op == "+" and (isinstance(a, str) or isinstance(b, str)):
        from ..values import to_text

        return to_text(a) + to_text(b)
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return float("nan")
    result = a + b if op == "+" else a - b
    return int(result) if math.isfinite(result) and result == int(result) else result


@dataclass(frozen=True)
class FilterExpr:
    text: str
    node: Node

    def evaluate(self, value: Any) -> Any:
        return self.node(value)

    def test(self, value: Any) -> bool:
        return truthy(self.node(value))


def parse_filter(text: str) -> FilterExpr:
    try:
        return FilterExpr(text, _Parser(_tokenize(text), text).parse())
    except RecursionError:  # MAX_DEPTH keeps it far away; this is the guard behind the guard
        raise FilterSyntaxError(f"filter {text[:60]!r} is nested too deeply") from None
