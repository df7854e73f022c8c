"""Syntax colours for the shell's prompt, from the language's own tokens.

The keywords are read from the grammar the parser is built from (every
terminal that is a word), so a keyword added to ``grammar.lark`` is coloured
without a list here to keep in step; the console's ``highlight.js`` colours the
same classes: comments, quoted text with its ``{…}`` tokens, numbers, keywords.
A line starting with ``.`` is a dot-command. The whole text is scanned at once
— a comment or a quoted text may span lines — then cut into lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.lexers import Lexer
from prompt_toolkit.styles import Style

STYLE = Style.from_dict(
    {
        "ql.keyword": "ansiblue bold",
        "ql.string": "ansigreen",
        "ql.token": "ansimagenta bold",
        "ql.number": "ansicyan",
        "ql.comment": "ansibrightblack italic",
        "ql.meta": "ansiyellow",
    }
)

# comment | quoted text | {token} outside quotes | number | word | anything else
_TOKEN = re.compile(
    r"""(?P<comment>--[^\n]*|/\*[\s\S]*?(?:\*/|$))"""
    r"""|(?P<string>"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?)"""
    r"""|(?P<token>\{[^{}\n]*\})"""
    r"""|(?P<number>[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"""
    r"""|(?P<word>[A-Za-z$:][A-Za-z0-9_$:]*)"""
    r"""|(?P<other>[\s\S])"""
)
_IN_STRING = re.compile(r"\{[^{}\n]*\}")
_ANY_CASE = frozenset({"timeout", "mindelay", "maxdelay"})  # the keywords matched in any case (spec §2.1)


@cache
def keywords() -> frozenset[str]:
    """The language's keywords, as the grammar spells them (lower case; ``timeout``,
    ``minDelay`` and ``maxDelay`` also as written in the spec)."""
    from ..lang.parser.grammar import PARSER

    words = set()
    for terminal in PARSER.terminals:
        pattern = terminal.pattern
        text = pattern.value if pattern.type == "str" else pattern.value.removesuffix("\\b")
        if re.fullmatch(r"[A-Za-z]+", text):
            words.add(text)
    return frozenset((words - {"mindelay", "maxdelay"}) | {"minDelay", "maxDelay"})


def tokens(text: str) -> StyleAndTextTuples:
    """``text`` as (style, fragment) pairs."""
    if text.lstrip().startswith("."):
        return [("class:ql.meta", text)]
    known = keywords()
    out: StyleAndTextTuples = []
    for m in _TOKEN.finditer(text):
        kind, piece = m.lastgroup, m.group()
        if kind == "string":
            out += _quoted(piece)
        elif kind == "word":
            out.append(("class:ql.keyword" if piece in known or piece.lower() in _ANY_CASE else "", piece))
        elif kind in ("comment", "token", "number"):
            out.append((f"class:ql.{kind}", piece))
        else:
            out.append(("", piece))
    return out


def _quoted(text: str) -> StyleAndTextTuples:
    """Quoted text, its ``{…}`` tokens standing out."""
    out: StyleAndTextTuples = []
    last = 0
    for m in _IN_STRING.finditer(text):
        out.append(("class:ql.string", text[last : m.start()]))
        out.append(("class:ql.token", m.group()))
        last = m.end()
    out.append(("class:ql.string", text[last:]))
    return [piece for piece in out if piece[1]]


def by_line(fragments: StyleAndTextTuples) -> list[StyleAndTextTuples]:
    """The fragments cut at line ends (each line without its ``\\n``)."""
    lines: list[StyleAndTextTuples] = [[]]
    for style, text, *_ in fragments:
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                lines.append([])
            if part:
                lines[-1].append((style, part))
    return lines


class QlLexer(Lexer):
    def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
        lines = by_line(tokens(document.text))

        def line(number: int) -> StyleAndTextTuples:
            return lines[number] if number < len(lines) else []

        return line
