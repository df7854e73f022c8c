"""Where the statements typed into the shell end.

The language's ``;`` is optional (a statement ends where the grammar says), but
a shell must know when to run what it was given before the parser can tell: as
in psql, a statement ends with a ``;`` that is outside quoted text, comments and
brackets. A ``;`` inside ``{ … }`` belongs to an ``if``/``try`` block or a JSON
value, one inside ``'…'`` or ``"…"`` to the text, one after ``--`` or inside
``/* … */`` to a comment.

Quoted text is read with JSON's backslash escapes (``"say \\"hi\\""``): clause
text takes backslashes verbatim, but a clause ending in a backslash is rarer
than a JSON string holding an escaped quote, and at worst the shell asks for
one more line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}


@dataclass(frozen=True)
class Split:
    statements: list[str]  # complete statements, without their ``;``
    rest: str  # what follows the last ``;``: an unfinished statement, or blank
    lines: list[int] = field(default_factory=list)  # the line (from 1) each statement starts on

    @property
    def pending(self) -> bool:
        """Does ``rest`` hold code (more than blanks and comments)?"""
        return has_code(self.rest)


def split_statements(text: str) -> Split:
    """The complete statements of ``text`` and the unfinished rest. Statements
    that hold no code (``;;``, a comment alone) are dropped."""
    statements: list[str] = []
    lines: list[int] = []
    start = 0
    for end in _terminators(text):
        chunk = text[start:end]
        if has_code(chunk):
            statements.append(chunk.strip())
            lines.append(text.count("\n", 0, start + len(chunk) - len(chunk.lstrip())) + 1)
        start = end + 1
    return Split(statements, text[start:], lines)


def is_complete(text: str) -> bool:
    """Is ``text`` ready to run: code, all of it ended by a ``;``?"""
    split = split_statements(text)
    return bool(split.statements) and not split.pending


def has_code(text: str) -> bool:
    """Does ``text`` hold anything but whitespace, comments and ``;``?"""
    return any(kind == "text" or text[i] != ";" for kind, i in _scan(text))


def _terminators(text: str) -> list[int]:
    """Offsets of the ``;`` that end statements: outside quotes, comments and brackets."""
    depth = 0
    out = []
    for kind, i in _scan(text):
        if kind != "code":
            continue
        c = text[i]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth = max(0, depth - 1)
        elif c == ";" and depth == 0:
            out.append(i)
    return out


def _scan(text: str) -> list[tuple[str, int]]:
    """What ``text`` holds besides whitespace and comments: ("code", offset) for
    each character, ("text", offset) for each quoted text (at its opening quote)."""
    out: list[tuple[str, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "-" and text.startswith("--", i):
            newline = text.find("\n", i)
            i = n if newline < 0 else newline + 1
        elif c == "/" and text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2
        elif c in "'\"":
            out.append(("text", i))
            i = _end_of_quote(text, i)
        else:
            if not c.isspace():
                out.append(("code", i))
            i += 1
    return out


def _end_of_quote(text: str, start: int) -> int:
    """The offset just past the quote that closes the one at ``start`` (the
    text's end when none does)."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == quote:
            return i + 1
        i += 1
    return len(text)
