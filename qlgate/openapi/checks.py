"""Checks on spec text before it is read or written: types, and what may be written.

A spec is input from outside, and the importer writes it into files the gateway
runs: ``.ql`` tables and ``.j2`` Jinja2 body templates. Two kinds of check keep a
malformed or hostile spec from doing more than fail with a ``SpecError``:

- type checks (``obj``, ``arr``, ``text``) for each node read, naming the node by its
  JSON pointer (``#/paths/~1a/get/parameters: expected a list, got a number``);
- text checks for everything written: media types, paths, parameter and header
  names and resultset keys must match strict patterns, text in a ``--`` comment
  loses its line breaks and other control characters (``comment``), text in a
  Jinja2 comment loses its delimiters too (``jinja_comment``), and text written
  between quotes must not be able to close them (``clause``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any


class SpecError(ValueError):
    """The document is not an OpenAPI 3 or Swagger 2 document we can read (or one we
    will not write: see above). The message is one line without control characters."""

    def __init__(self, message: str):
        super().__init__(comment(message))


# type/subtype plus simple token parameters (RFC 6838 restricted names, without '#')
_NAME = r"[A-Za-z0-9][A-Za-z0-9!$&^_.+-]{0,126}"
MEDIA_TYPE = re.compile(rf"{_NAME}/{_NAME}(?: ?; ?[A-Za-z0-9][A-Za-z0-9!$&^_.+-]*=[A-Za-z0-9!$&^_.+-]+)*\Z")
# RFC 3986 path characters (pchar), percent escapes, and {name} templates
PATH = re.compile(r"(?:/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2}|\{[A-Za-z0-9_.\-]+\})*)+\Z")
HEADER_NAME = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+\Z")  # RFC 9110 token
PARAM_NAME = re.compile(r"[A-Za-z0-9!$&'*+.^_`|~:@\[\]-]+\Z")  # a token, plus filter[name] and a:b
SCOPE = re.compile(r"[\x21\x23-\x5b\x5d-\x7e]+\Z")  # RFC 6749 scope-token
RESULTSET_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
_JINJA = re.compile(r"\{[{%#]|[%#}]\}")


def at(where: str, *parts: str | int) -> str:
    """The JSON pointer ``where`` extended by ``parts`` (``~`` and ``/`` escaped)."""
    return where + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def shown(value: Any, limit: int = 60) -> str:
    """A value for an error message: one line, no control characters, bounded."""
    text = ascii(value) if isinstance(value, str) else kind_name(value)
    return text if len(text) <= limit else text[:limit] + "…"


def kind_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _wrong(where: str, expected: str, value: Any) -> SpecError:
    return SpecError(f"{where}: expected {expected}, got {kind_name(value)}")


def obj(value: Any, where: str) -> dict[str, Any]:
    """An object node; absent (None) is an empty one."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _wrong(where, "an object", value)
    return value


def arr(value: Any, where: str) -> list[Any]:
    """A list node; absent (None) is an empty one."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise _wrong(where, "a list", value)
    return value


def text(value: Any, where: str, default: str = "") -> str:
    """A string node (numbers are read as their text); absent is ``default``."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _wrong(where, "a string", value)
    return str(value)


def name_text(value: Any, where: str) -> str:
    """A name (operationId, parameter name): a string, nothing else."""
    if not isinstance(value, str):
        raise _wrong(where, "a string", value)
    return value


def media_type(value: str, where: str) -> str:
    if not MEDIA_TYPE.match(value):
        raise SpecError(f"{where}: {shown(value)} is not a media type (type/subtype; name=value)")
    return value


def path(value: str, where: str) -> str:
    if not PATH.match(value):
        raise SpecError(f"{where}: {shown(value)} is not a URL path (RFC 3986 characters and {{name}} templates)")
    return value


def comment(line: str) -> str:
    """``line`` safe in a ``--`` comment: control characters (CR, LF, NUL, …), line and
    paragraph separators and bidi overrides become spaces, so it stays one line."""
    return "".join(
        " " if unicodedata.category(c) in ("Cc", "Zl", "Zp") or ord(c) in _BIDI else c for c in line
    ).rstrip()


def jinja_comment(line: str) -> str:
    """``line`` safe inside a Jinja2 ``{# … #}`` comment: one line, no delimiters."""
    out = comment(line)
    while _JINJA.search(out):
        out = _JINJA.sub(lambda m: m.group(0)[0] + " " + m.group(0)[1], out)
    return out


def clause(value: str, what: str, quote: str = "'") -> str:
    """``value`` quoted for a ``.ql`` clause: in ``quote`` unless it holds one, then in
    the other kind (``'…'`` and ``"…"`` have no escapes); neither is an error."""
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in value):
        raise SpecError(f"{what}: {shown(value)} holds a control character")
    for mark in (quote, "'" if quote == '"' else '"'):
        if mark not in value:
            return mark + value + mark
    raise SpecError(f"{what}: {shown(value)} holds both kinds of quote")
