"""Lark's parse errors → ``QlSyntaxError`` messages a script author can act on.

Lark reports terminal names (``LPAR``, ``$END``) and positions of whatever token it
choked on; a person needs "expected ')'" and the word they actually wrote. The
rewrites here are the ones the error goldens (tests/lang/goldens/errors) pin down.
"""

from __future__ import annotations

import re

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ...errors import QlSyntaxError
from .grammar import PARSER
from .habits import sql_habit

# Readable names for terminals in "expected ..." messages.
_TERMINAL_NAMES = {
    "PATH": "a name",
    "QUOTED_PATH": "a quoted column name",
    "CLAUSE_TEXT": "quoted text",
    "JSON_STRING": "a string",
    "NUMBER": "a number",
    "SEMICOLON": "';'",
    "EQUAL": "'='",
    "LPAR": "'('",
    "RPAR": "')'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "COLON": "':'",
    "STAR": "'*'",
    "_OR": "'||'",
    "OR": "'||'",
    "AND": "'&&'",
    "BANG": "'!'",
    "CIRCUMFLEX": "'^'",
    "TIMEOUT": "timeout",
    "MINDELAY": "minDelay",
    "MAXDELAY": "maxDelay",
    "$END": "end of script",
}
_BARE_WORD = 'a bare word is not a value; write "{name}" to copy a variable'
_WORD_CHAR = re.compile(r"[A-Za-z0-9_:$]")


def _terminal_name(name: str) -> str:
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    try:
        pattern = PARSER.get_terminal(name).pattern
        if pattern.type == "str":
            return repr(pattern.value).replace('"', "'")
    except KeyError:
        pass
    return name.lower()


def _after_bare_word_assignment(source: str, e: UnexpectedToken) -> bool:
    """``copy = original`` (spec §3): the token after a lone word on an assignment's right."""
    end = len(source) if e.token.type == "$END" else e.token.start_pos
    before = source[:end].rstrip()
    return bool(
        re.search(r"(^|[;\s])[A-Za-z$:][A-Za-z0-9_:]*\s*=\s*[A-Za-z$:][A-Za-z0-9_:.\[\]]*$", before)
    ) and "LPAR" in (e.accepts or e.expected or ())


def _offset(source: str, line: int, column: int) -> int:
    lines = source.splitlines(keepends=True)
    return sum(len(text) for text in lines[: line - 1]) + column - 1


def _error_offset(source: str, e: UnexpectedInput, line: int, column: int) -> int:
    """Where in ``source`` lark stopped: the token or character it refused, or the end."""
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        return len(source)
    if isinstance(e, UnexpectedToken) and e.token.start_pos is not None:
        return e.token.start_pos
    if isinstance(e, UnexpectedCharacters) and e.pos_in_stream is not None:
        return e.pos_in_stream
    return _offset(source, line, column)


def syntax_error(source: str, e: UnexpectedInput, origin: str | None) -> QlSyntaxError:
    """The error to raise for lark's ``e``: position, found text, message, expectations."""
    lines = source.splitlines() or [""]
    line = getattr(e, "line", None) or 1
    column = getattr(e, "column", None) or 1
    found: str | None
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        line = len(lines)
        column = len(lines[-1]) + 1 if lines else 1
        found = None
        expected = sorted({_terminal_name(t) for t in getattr(e, "expected", [])})
        message = "unexpected end of script"
        if isinstance(e, UnexpectedToken) and _after_bare_word_assignment(source, e):
            message = _BARE_WORD
            expected = []
    elif isinstance(e, UnexpectedToken):
        found = str(e.token)
        expected = sorted({_terminal_name(t) for t in e.accepts or e.expected})
        message = f"unexpected {found!r}"
        if _after_bare_word_assignment(source, e):
            message = _BARE_WORD
            expected = []
    else:
        assert isinstance(e, UnexpectedCharacters)
        at = e.pos_in_stream or 0  # always set when characters are unexpected
        found = source[at : at + 1]
        if found in "\"'":
            message = "unterminated string"
        elif source.startswith("/*", at):
            message = "unterminated block comment"
            e.allowed = set()
        else:
            message = f"unexpected character {found!r}"
        expected = sorted({_terminal_name(t) for t in (e.allowed or ())})
    if found and re.fullmatch(r"[A-Za-z0-9_:$]+", found):
        # a keyword literal may have matched the front of a longer word ("gett"): report the word
        offset = _offset(source, line, column)
        start = offset
        while start > 0 and _WORD_CHAR.match(source[start - 1]):
            start -= 1
        end = offset
        while end < len(source) and _WORD_CHAR.match(source[end]):
            end += 1
        if start < offset:
            found = source[start:end]
            column -= offset - start
            message = f"unexpected {found!r}"
            expected = []  # what lark expected was after the keyword it wrongly matched
    # only where lark's own report is the generic one: an unterminated string says more
    habit = sql_habit(source, _error_offset(source, e, line, column)) if message.startswith("unexpected ") else None
    if habit:
        found, message, expected = habit.found, habit.message, []
        line = source.count("\n", 0, habit.offset) + 1
        column = habit.offset - (source.rfind("\n", 0, habit.offset) + 1) + 1
    if expected:
        shown = expected if len(expected) <= 8 else [*expected[:8], "…"]
        message += "; expected " + ", ".join(shown)
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    return QlSyntaxError(
        message,
        line=line,
        column=column,
        source_line=source_line,
        found=found,
        expected=expected,
        source=origin,
    )
