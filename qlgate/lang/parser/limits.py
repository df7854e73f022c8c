"""How deep a script may nest brackets, checked on the raw text before lark sees it.

The parser, the transformer and the template reader all recurse, and a script of
nothing but ``{{{{…`` would otherwise cost seconds of CPU before failing. One
regular-expression pass is cheap enough to run on every script.
"""

from __future__ import annotations

import re
from typing import NoReturn

from ...errors import QlSyntaxError

MAX_NESTING = 64
# comments, quoted text (a backslash escapes in JSON strings; clause text has none, and
# reading it as if it had only shortens a piece) and brackets, in one pass
_PIECE = re.compile(r"--[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:[^\"\\]|\\.)*\"?|'(?:[^'\\]|\\.)*'?|[\[\]{}()]", re.S)
_BRACE = re.compile(r"[{}]")


def check_nesting(source: str, origin: str | None) -> None:
    """Refuse nesting deeper than any real script needs. Brackets count outside quoted
    text; inside it, the braces of interpolation tokens; comments not."""
    depth = 0
    for piece in _PIECE.finditer(source):
        text = piece.group()
        if text in "[{(":
            depth += 1
            if depth > MAX_NESTING:
                _too_deep(source, piece.start(), origin)
        elif text in "]})":
            depth = max(0, depth - 1)
        elif text[0] in "\"'" and "{" in text:
            inner = 0
            for brace in _BRACE.finditer(text):
                inner = inner + 1 if brace.group() == "{" else max(0, inner - 1)
                if inner > MAX_NESTING:
                    _too_deep(source, piece.start() + brace.start(), origin)


def _too_deep(source: str, offset: int, origin: str | None) -> NoReturn:
    line = source.count("\n", 0, offset) + 1
    column = offset - (source.rfind("\n", 0, offset) + 1) + 1
    lines = source.splitlines()
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    raise QlSyntaxError(
        f"brackets nested more than {MAX_NESTING} deep",
        line=line,
        column=column,
        source_line=source_line[:200],
        found=source[offset],
        source=origin,
    )
