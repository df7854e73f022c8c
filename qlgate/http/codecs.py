"""Response bodies → JSON values (spec §10.7): charset decoding, media types,
and the XML, JSON and CSV transformations.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import orjson

from .xml import XmlError, xml_to_json

_NO_PARAMS: Mapping[str, str | None] = MappingProxyType({})


class TransformFailure(ValueError):
    """The body could not be turned into JSON for its media type."""


@lru_cache(maxsize=256)
def parse_media_type(value: str | None) -> tuple[str, Mapping[str, str | None]]:
    """``text/csv; header; charset=UTF-8`` → ("text/csv", {"header": None, "charset": "UTF-8"}).
    Cached: an upstream sends the same few content types over and over."""
    if not value:
        return "application/json", _NO_PARAMS
    parts = [p.strip() for p in value.split(";")]
    essence = parts[0].lower()
    if essence in ("xml",):
        essence = "application/xml"
    elif essence in ("json",):
        essence = "application/json"
    elif essence == "text/xml":
        essence = "application/xml"
    params: dict[str, str | None] = {}
    for p in parts[1:]:
        if not p:
            continue
        if "=" in p:
            k, v = p.split("=", 1)
            params[k.strip().lower()] = v.strip().strip('"')
        else:
            params[p.lower()] = None
    return essence, MappingProxyType(params)


class CharsetError(TransformFailure):
    """The declared charset is unknown, not a text encoding, or refused (UTF-7)."""


# UTF-7 spells markup without '<' ('+ADw-script+AD4-'), the classic way past filters
# that look at bytes; no API needs it, so it is refused rather than decoded.
_REFUSED_CHARSETS = frozenset({"utf-7"})


@lru_cache(maxsize=64)
def _codec(name: str) -> str:
    """The codec for a charset name. Unknown names fail instead of silently decoding
    as UTF-8 (the text would be garbled without a word); so do byte-to-byte codecs
    Python also knows by name (``base64``, ``rot13``, ``zlib``) and UTF-7."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise CharsetError(f"unknown charset {name!r}") from None
    if not info._is_text_encoding or info.name in _REFUSED_CHARSETS:
        raise CharsetError(f"unsupported charset {name!r}")
    return info.name


def decode_text(body: bytes, charset: str | None, *, errors: str = "replace") -> str:
    """Decode with the declared charset; ``ucs-2`` is UTF-16, big-endian without a BOM.
    Raises CharsetError for a charset it will not decode (see ``_codec``); with
    ``errors="strict"``, UnicodeDecodeError for bytes that are not in the charset."""
    name = (charset or "utf-8").strip().lower()
    if name in ("ucs-2", "ucs2", "iso-10646-ucs-2"):
        if body.startswith(codecs.BOM_UTF16_LE):
            return body[2:].decode("utf-16-le", errors=errors)
        if body.startswith(codecs.BOM_UTF16_BE):
            return body[2:].decode("utf-16-be", errors=errors)
        return body.decode("utf-16-be", errors=errors)
    codec = _codec(name)
    try:
        text = body.decode(codec, errors=errors)
    except UnicodeError as e:
        if errors == "strict" and isinstance(e, UnicodeDecodeError):
            raise
        # codecs that ignore the error handler or always fail (idna, punycode, undefined)
        raise CharsetError(f"cannot decode charset {name!r}: {e}") from None
    return text[1:] if text.startswith("\ufeff") else text


# Deeper than any real document, well below Python's recursion limit: the engine walks
# values recursively (paths, merges, output), so a value this deep must still be safe
# to walk with room to spare. XML gets the same bound from lxml (huge_tree off).
MAX_JSON_DEPTH = 256


class JsonTooDeep(TransformFailure):
    """JSON nested deeper than MAX_JSON_DEPTH."""


def _nested_deeper(value: Any, limit: int) -> bool:
    """Is any container more than ``limit`` levels down? Level by level, not recursive:
    the point is not to recurse on a value that may be too deep to recurse on."""
    level, depth = [value], 1
    while level:
        if depth > limit:
            return True
        below = []
        for node in level:
            for child in node.values() if type(node) is dict else node:
                if type(child) is dict or type(child) is list:
                    below.append(child)
        level, depth = below, depth + 1
    return False


def load_json(text: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` with a depth bound, for text from outside (upstream bodies, request
    bodies). Raises TransformFailure, JsonTooDeep when nested deeper than ``max_depth``.
    Fast for what APIs send: the walk that measures the depth only runs when the text
    holds more brackets than the bound, and json's own recursion guard (RecursionError)
    stops the pathological ``[[[[…`` before it costs anything. orjson parses; json
    takes what orjson refuses (NaN, integers beyond 64 bits, lone surrogates) and
    words the error when neither can."""
    try:
        value = orjson.loads(text)
    except (ValueError, TypeError):
        # what orjson refuses json may take (NaN, integers beyond 64 bits, lone surrogates),
        # or says precisely why not
        value = _json_loads(text, max_depth)
    return _within_depth(text, value, max_depth)


def _json_loads(text: str, max_depth: int) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise JsonTooDeep(f"JSON nested more than {max_depth} levels deep") from None
    except ValueError as e:
        raise TransformFailure(f"invalid JSON: {e}") from None


def _within_depth(text: str, value: Any, max_depth: int) -> Any:
    if (
        (type(value) is dict or type(value) is list)
        and text.count("[") + text.count("{") > max_depth
        and _nested_deeper(value, max_depth)
    ):
        raise JsonTooDeep(f"JSON nested more than {max_depth} levels deep")
    return value


def _parse_csv(text: str, header: bool) -> Any:
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as e:
        raise TransformFailure(f"invalid CSV: {e}") from None
    rows = [r for r in rows if r]
    if not header:
        return rows
    if not rows:
        return []
    names = rows[0]
    return [dict(zip(names, r)) for r in rows[1:]]


def transform(text: str, essence: str, params: Mapping[str, str | None]) -> Any:
    """Turn response text into JSON for the media type, or raise TransformFailure."""
    if not text or text.isspace():
        return {}
    subtype = essence.split("/", 1)[1] if "/" in essence else essence
    try:
        if subtype == "xml" or subtype.endswith("+xml"):
            return xml_to_json(text)
        if subtype == "json" or subtype.endswith("+json"):
            return load_json(text)
        if essence == "application/x-www-form-urlencoded":
            from urllib.parse import parse_qsl

            out: dict[str, Any] = {}
            for key, value in parse_qsl(text.strip(), keep_blank_values=True):
                out[key] = (
                    [*out[key], value]
                    if isinstance(out.get(key), list)
                    else ([out[key], value] if key in out else value)
                )
            return out
        if subtype == "csv":
            return _parse_csv(text, "header" in params and params["header"] not in ("absent",))
        if essence.startswith("text/"):
            try:
                return load_json(text)
            except JsonTooDeep:
                raise
            except TransformFailure:
                return xml_to_json(text)
    except XmlError as e:
        raise TransformFailure(str(e)) from None
    raise TransformFailure(f"No transformer available for media type '{essence}'")
