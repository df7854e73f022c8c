"""A script's shape: its text with the literal values of ``where`` operands cut out.

A gateway sees ``… where q = "x1"``, ``… where q = "x2"``… and each is a script of its
own to an exact-text cache. Two scripts with one shape differ only in values that
cannot change how the script parses or plans, so they can share one parse (see
``reuse``), like two executions of one prepared statement.

Only values whose position and content make that certain are lifted:

- quoted text or a plain integer that is the operand of ``PATH = …`` or ``PATH in …``
  right after ``where`` or ``and``, or an element of an ``in ( … )`` list (whose other
  elements may be paths);
- quoted text without braces (an interpolation token is code, not a value), quotes,
  backslashes (escapes), control characters or line breaks (a line break moves every
  later line number); integers of at most 15 digits with no ``+``.

Everything else stays in the shape, so it is part of the key: ``limit``/``offset``
counts, ``create table`` and route clauses, JSON values, UDF arguments, comments.
This scan is a guess that is cheap to make on every request; ``reuse`` checks it
against the real parser once per shape before any script shares anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

MAX_LIFTED = 256  # literals lifted from one script; beyond, the script keys by its text

_PATH = r"""(?:[A-Za-z$:][A-Za-z0-9_:]*)(?:\.\.?(?:[A-Za-z$:][A-Za-z0-9_:]*|\*)|\[(?:\d+|\*|'[^'\n]*'|"[^"\n]*"|\??\((?:'[^'\n]*'|"[^"\n]*")\))\])*"""
# a literal that may be lifted: quoted text with no quote, brace, backslash, control
# character or line break in it, or an integer of at most 15 digits; and nothing that
# would make it part of a longer token right after it
_LITERAL = (
    r"""(?:"[^"\\{}\x00-\x1f\x7f\u2028\u2029\x85]*"|'[^'\\{}\x00-\x1f\x7f\u2028\u2029\x85]*'|-?\d{1,15})(?![\w.\[$:])"""
)
_OPERAND_PATTERN = (
    rf"""(?<![\w$:.\]])(?:(?:where|and)\s+{_PATH}\s*(?:=|in(?![\w:$]))\s*({_LITERAL})"""  # 1: PATH = lit, PATH in lit
    rf"""|in\s*\(\s*((?:{_LITERAL}|{_PATH})(?:\s*,\s*(?:{_LITERAL}|{_PATH}))*)\s*\))"""  # 2: in (lit, path…)
)
# the elements of such a list: a path (group 1, kept) or a literal (group 2, lifted)
_ELEMENT_PATTERN = rf"({_PATH})|({_LITERAL})"


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The operand and element patterns, compiled on the first lift: some 3 ms that a
    ``qlgate run`` whose script lifts nothing should not pay at import."""
    return re.compile(_OPERAND_PATTERN), re.compile(_ELEMENT_PATTERN)


@dataclass(frozen=True, slots=True)
class Lifted:
    """``key``: the shape (the text with each lifted literal replaced by a marker of
    its kind). ``values``: the literals' contents (quoted text without its quotes,
    integers as written). ``spans``: where each literal stands in the script,
    quotes included."""

    key: str
    values: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    kinds: str  # one character per value: '"' or "'" (quoted text), 'n' (integer)


def lift(script: str) -> Lifted | None:
    """The script's shape and lifted values; None when nothing is lifted (the script's
    text is then its own key) or when the text holds a NUL (the marker character)."""
    if "\x00" in script or not any(word in script for word in ("where", "and", "in")):
        return None  # every operand follows one of those words: no need for the patterns
    operand, element_pattern = _patterns()
    spans: list[tuple[int, int]] = []
    for match in operand.finditer(script):
        if match.start(1) >= 0:
            spans.append(match.span(1))
        else:
            for element in element_pattern.finditer(script, match.start(2), match.end(2)):
                if element.start(2) >= 0:
                    spans.append(element.span(2))
    if not spans or len(spans) > MAX_LIFTED:
        return None
    pieces, values, kinds, start = [], [], [], 0
    for begin, end in spans:
        kind = script[begin]
        if kind in "\"'":
            values.append(script[begin + 1 : end - 1])
        else:
            kind = "n"
            values.append(script[begin:end])
        pieces.append(script[start:begin])
        pieces.append("\x00" + kind)
        kinds.append(kind)
        start = end
    pieces.append(script[start:])
    return Lifted("".join(pieces), tuple(values), tuple(spans), "".join(kinds))
