"""The statements of ql.io's own tests in its eBay tree (``test/*.js``, nodeunit):
each ``q = …`` or ``script = …`` assignment of a string (literals joined with ``+``,
lines continued with ``\\``) that the test hands to ``engine.exec``. The string's
source is found by scanning the test, and its value taken by evaluating that
source — JavaScript — in the sandbox, so escapes mean what they meant to Node."""

from __future__ import annotations

import re
from pathlib import Path

_ASSIGN = re.compile(r"^(?!\s*//).*?\b(?:q|script)\s*=\s*(?=['\"])", re.M)


def _string_end(text: str, i: int) -> int:
    quote = text[i]
    i += 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _expression(text: str, i: int) -> str | None:
    """The ``'a' + "b"`` source starting at ``i``, or None when something else follows."""
    start = i
    while True:
        if i >= len(text) or text[i] not in "'\"":
            return None
        i = _string_end(text, i)
        j = i
        while j < len(text) and text[j] in " \t\r\n":
            j += 1
        if j < len(text) and text[j] == "+":
            j += 1
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            i = j
            continue
        return text[start:i]


def statements(test_dir: Path) -> list[tuple[str, str]]:
    """(test file, statement) for every statement of the tests under ``test_dir``."""
    import quickjs

    context = quickjs.Context()
    found = []
    for file in sorted(test_dir.glob("*.js")):
        text = file.read_text(encoding="utf-8")
        for match in _ASSIGN.finditer(text):
            source = _expression(text, match.end())
            if source is None:
                continue
            value = context.eval("(" + source + ")")
            if isinstance(value, str) and value.strip():
                found.append((file.name, value))
    return found
