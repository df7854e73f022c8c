"""Response bodies → JSON values (spec §10.7): charset decoding, media types,
and the XML, JSON and CSV transformations.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

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


@lru_cache(maxsize=64)
def _codec(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"


def decode_text(body: bytes, charset: str | None) -> str:
    """Decode with the declared charset; ``ucs-2`` is UTF-16, big-endian without a BOM."""
    name = (charset or "utf-8").strip().lower()
    if name in ("ucs-2", "ucs2", "iso-10646-ucs-2"):
        if body.startswith(codecs.BOM_UTF16_LE):
            return body[2:].decode("utf-16-le", errors="replace")
        if body.startswith(codecs.BOM_UTF16_BE):
            return body[2:].decode("utf-16-be", errors="replace")
        return body.decode("utf-16-be", errors="replace")
    text = body.decode(_codec(name), errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as e:
        raise TransformFailure(f"invalid JSON: {e}") from None


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
            return _parse_json(text)
        if essence == "application/x-www-form-urlencoded":
            from urllib.parse import parse_qsl
            out: dict[str, Any] = {}
            for key, value in parse_qsl(text.strip(), keep_blank_values=True):
                out[key] = [*out[key], value] if isinstance(out.get(key), list) else (
                    [out[key], value] if key in out else value)
            return out
        if subtype == "csv":
            return _parse_csv(text, "header" in params and params["header"] not in ("absent",))
        if essence.startswith("text/"):
            try:
                return json.loads(text)
            except ValueError:
                return xml_to_json(text)
    except XmlError as e:
        raise TransformFailure(str(e)) from None
    raise TransformFailure(f"No transformer available for media type '{essence}'")
