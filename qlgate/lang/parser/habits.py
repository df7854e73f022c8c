"""Parse errors that come from SQL habits, rewritten to say what the language has instead.

People arrive from SQL and write ``SELECT``, ``where a = 1 or b = 2``, ``order by`` and
``1 + 1``. The grammar has none of these (spec §4.12), and lark's own report is about the
token *after* the habit ("unexpected '*'; expected '(', '='", because ``SELECT`` was read
as a variable name): true, but no help. ``sql_habit`` looks at the word or character where
parsing stopped and the word just before it; when one of them is a known habit it returns
the message to show instead and where the habit starts, so the caret points at ``SELECT``,
``or``, ``order`` or ``+``, not past it. Anything else is left to ``messages``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .grammar import PARSER

_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_]*")
_WORD_BEFORE = re.compile(r"([A-Za-z_$][A-Za-z0-9_]*)\s*$")
_ANY_CASE = frozenset({"timeout", "mindelay", "maxdelay"})  # matched in any case (spec §2.1)
_OPERATORS = "+-*/%"

_OR = (
    "there is no 'or': to ask a table for several values write 'name in (\"a\", \"b\")'; to filter rows "
    'use a path filter ("{rows[?(@.price < 10 || @.sold)]}") or a UDF in the where clause; '
    "in an if or catch condition write '||'"
)
_NOT = (
    "there is no 'not' in a where clause: filter rows with a UDF in the where clause or a path filter "
    "(\"{rows[?(@.state != 'sold')]}\"); in an if or catch condition write '!'"
)
_GROUP = "there is no 'group by': group rows in a UDF (u = require(\"group.py\"); groups = u.by_seller(rows))"
_ORDER = (
    "there is no 'order by': rows come in the order the table answers; ask the table to sort "
    '(many have a parameter for it, as in where sort = "price"), or sort in a UDF (u = require("sort.py"))'
)
_ARITHMETIC = (
    'there is no arithmetic in scripts: compute in a UDF (u = require("calc.py"); total = u.add(a, b)), '
    "as a value, a column or a where condition"
)
_CASE = "keywords are lower case: write '{lower}', not '{word}'"
_COMPARE = (
    "a where condition is 'name = value' or 'name in (…)': to compare, keep rows with a path filter "
    '("{rows[?(@.price > 10)]}") or a UDF in the where clause'
)
_LOOK_BACK = 2000  # characters: a statement's where clause, not a 4 MB script searched on each error
_IN_WHERE = re.compile(r"\bwhere\b[^;]*$")


@dataclass(frozen=True, slots=True)
class Habit:
    """What to say instead, and the text and offset the caret should point at."""

    message: str
    found: str
    offset: int


@cache
def _keywords() -> frozenset[str]:
    """The grammar's keywords (lower case), read from the parser the scripts go through."""
    words = set()
    for terminal in PARSER.terminals:
        pattern = terminal.pattern
        if pattern.type == "str" and re.fullmatch(r"[a-z][A-Za-z]*", pattern.value):
            words.add(pattern.value.lower())
    return frozenset(words - _ANY_CASE)


def sql_habit(source: str, offset: int) -> Habit | None:
    """The habit that made parsing stop at ``offset``, if it is one we know."""
    here = _WORD.match(source, offset)
    word_here = here.group(0) if here else ""
    window = max(0, offset - _LOOK_BACK)  # what comes before is searched near the error only
    head = source[window:offset]
    before = _WORD_BEFORE.search(head)
    word_before = before.group(1) if before else ""
    start_before = window + before.start(1) if before else offset
    # the word before first: "SELECT *" stops at "*", "x or y = 1" at "y", "order by" at "by"
    for word, at, after in ((word_before, start_before, word_here), (word_here, offset, _next_word(source, offset))):
        habit = _word_habit(word, at, after)
        if habit:
            return habit
    char = source[offset : offset + 1]
    in_where = _IN_WHERE.search(head) is not None
    if in_where and ((char and char in "<>!") or word_here.lower() in ("like", "between")):
        operator = re.compile(r"[<>!=]+").match(source, offset)
        return Habit(_COMPARE, word_here or (operator.group(0) if operator else char), offset)
    # after a value; "*" after a bare word is more likely a misspelt "select *"
    value_before = r"[\w\"')\]}]\s*$" if char != "*" else r"(^|[^\w$])[\d.]+\s*$|[\"')\]}]\s*$"
    if char and char in _OPERATORS and re.search(value_before, head):
        return Habit(_ARITHMETIC, char, offset)
    return None


def _word_habit(word: str, at: int, after: str) -> Habit | None:
    lower = word.lower()
    if not word:
        return None
    if lower == "or":
        return Habit(_OR, word, at)
    if lower == "not":
        return Habit(_NOT, word, at)
    if lower in ("order", "group") and after.lower() == "by":
        return Habit(_ORDER if lower == "order" else _GROUP, word, at)
    if word != lower and lower in _keywords():
        return Habit(_CASE.format(lower=lower, word=word), word, at)
    return None


def _next_word(source: str, offset: int) -> str:
    found = re.compile(r"[A-Za-z_$][A-Za-z0-9_]*\s*([A-Za-z_$][A-Za-z0-9_]*)").match(source, offset)
    return found.group(1) if found else ""
