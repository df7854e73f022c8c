"""Where a key is in a config file's text: the line and column a config error
points at (``deploy.json:12:7: cache.urll: unknown key``), as ``qlgate check``
points into tables and routes. JSON's parser gives no positions, so the text is
walked along the key's path, skipping every other value with the parser itself.

Standard library only: the loader imports it when a document is refused.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

__all__ = ["position"]

_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"


def position(text: str, parts: Sequence[str]) -> tuple[int, int] | None:
    """The 1-based line and column where the member at ``parts`` starts (its name, in
    an object; the item itself, in a list: parts like ``[3]``); None when the text does
    not hold it (a key the document got after it was read, text that is not JSON)."""
    try:
        offset = _find(text, _skip(text, 0), list(parts))
    except (ValueError, IndexError):
        return None
    if offset is None:
        return None
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at


def _find(text: str, at: int, parts: list[str]) -> int | None:
    """The offset of ``parts`` inside the value that starts at ``at``."""
    if not parts:
        return at
    part, rest = parts[0], parts[1:]
    if text[at] == "{" and not (part.startswith("[") and part.endswith("]")):
        at = _skip(text, at + 1)
        while text[at] != "}":
            name_at = at
            name, at = _DECODER.raw_decode(text, at)
            at = _skip(text, _skip(text, at) + 1)  # past the colon
            if name == part:
                return name_at if not rest else _find(text, at, rest)
            at = _next(text, at)
        return None
    if text[at] == "[" and part.startswith("[") and part.endswith("]"):
        wanted, index = int(part[1:-1]), 0
        at = _skip(text, at + 1)
        while text[at] != "]":
            if index == wanted:
                return _find(text, at, rest)
            at, index = _next(text, at), index + 1
        return None
    return None


def _next(text: str, at: int) -> int:
    """Past the value that starts at ``at`` and the comma after it, if any."""
    at = _skip(text, _DECODER.raw_decode(text, at)[1])
    return _skip(text, at + 1) if text[at] == "," else at
