"""Tokens → values: strings, numbers, words, paths and quoted text.

Each helper checks what the grammar cannot (a JSON escape, a number that overflows,
a path's brackets, an unterminated ``{`` inside quoted text) and raises ``ErrorAt``
with the position of the offending text, so the message points into the script
rather than at the statement around it.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from lark import Token as LarkToken

from .. import ast
from ..filters import FilterSyntaxError
from ..paths import PathSyntaxError, parse_path
from ..templates import Template, TemplateSyntaxError, parse_template

WORD = re.compile(r"[A-Za-z$:][A-Za-z0-9_:]*")


class ErrorAt(Exception):
    """Raised while building the AST; ``parse`` turns it into a ``QlSyntaxError`` that
    quotes the source line. Lark wraps it in a ``VisitError`` on the way out."""

    def __init__(self, message: str, line: int | None, column: int | None, found: str | None = None):
        super().__init__(message)
        # a token from the lexer always has a position; 1 only keeps the type honest
        self.message, self.line, self.column, self.found = message, line or 1, column or 1, found


def unquote(token: str) -> str:
    return token[1:-1]


def pos(meta: Any) -> ast.Pos:
    return ast.Pos(getattr(meta, "line", 1), getattr(meta, "column", 1))


def json_string(token: LarkToken) -> str:
    text = str(token)
    if text[0] == "'":
        # single-quoted JSON string: \' is an escape, a bare " is literal
        body = text[1:-1].replace("\\'", "'").replace('"', '\\"')
        text = '"' + body + '"'
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ErrorAt(f"invalid string escape: {e.msg}", token.line, token.column, str(token)) from None


def number(token: LarkToken) -> int | float:
    """A number literal. Results are strict JSON, which has no Infinity: a literal that
    overflows a double (``1e99999``) is an error at its position, as is an integer with
    more digits than Python converts (``sys.get_int_max_str_digits``)."""
    text = str(token).lstrip("+")
    if text.endswith(("e", "E", "e+", "e-", "E+", "E-")):
        text = text.rstrip("eE+-")
    if text.endswith("."):
        text = text[:-1]
    shown = str(token) if len(str(token)) <= 30 else str(token)[:30] + "…"
    if re.fullmatch(r"-?\d+", text):
        try:
            return int(text)
        except ValueError:
            raise ErrorAt(f"number {shown} has too many digits", token.line, token.column, shown) from None
    value = float(text)
    if math.isinf(value):
        raise ErrorAt(f"number {shown} is out of range", token.line, token.column, shown)
    return value


def non_negative_int(token: LarkToken, what: str) -> int:
    """Counts and durations (limit, offset, timeout, expires…)."""
    value = number(token)
    if not isinstance(value, int) or value < 0:
        raise ErrorAt(f"{what} must be a non-negative integer", token.line, token.column, str(token))
    return value


def template(token: LarkToken, text: str | None = None) -> Template:
    """Parse quoted text's tokens; errors point into the text itself. In clause
    text a brace always belongs to a token (spec §2.8), so a stray '}' is an error."""
    body = unquote(str(token)) if text is None else text
    try:
        parsed = parse_template(body)
        if token.type == "CLAUSE_TEXT":
            stray = _stray_close(parsed)
            if stray is not None:
                raise TemplateSyntaxError("unmatched '}' in quoted text", stray)
        return parsed
    except TemplateSyntaxError as e:
        before = body[: e.offset]
        line = (token.line or 1) + before.count("\n")
        if "\n" not in before:
            column = (token.column or 1) + 1 + e.offset
        else:
            column = len(before) - before.rfind("\n")
        what = str(e) if "unmatched" in str(e) else f"unterminated interpolation token {body[e.offset :].split()[0]!r}"
        raise ErrorAt(what, line, column, body[e.offset : e.offset + 20]) from None


def template_text(token: LarkToken) -> str:
    """Quoted text that tables parse as a template when they are built (URIs, header and
    parameter names): checked here so that an unterminated '{' is a syntax error at its
    position rather than a failure when the table is compiled."""
    template(token)
    return unquote(str(token))


def _stray_close(parsed: Template) -> int | None:
    """Offset of a '}' outside every token, if any."""
    offset = 0
    for part in parsed.parts:
        if isinstance(part, str):
            index = part.find("}")
            if index >= 0:
                return offset + index
            offset += len(part)
        else:
            offset += len(part.raw)
    return None


def path(token: LarkToken) -> ast.Path:
    text = str(token)
    try:
        return parse_path(text)
    except (PathSyntaxError, FilterSyntaxError) as e:
        raise ErrorAt(f"invalid path {text!r}: {e}", token.line, token.column, text) from None


def word(token: LarkToken, what: str) -> str:
    """Names that must be one word although the lexer reads them as paths (targets, aliases)."""
    text = str(token)
    if not WORD.fullmatch(text):
        raise ErrorAt(f"{what} must be a single word, not {text!r}", token.line, token.column, text)
    return text


def operand(token: LarkToken) -> ast.Operand:
    if token.type == "CLAUSE_TEXT":
        return ast.TextOperand(template(token))
    if token.type == "NUMBER":
        return ast.NumberOperand(number(token))
    return ast.PathOperand(path(token))
