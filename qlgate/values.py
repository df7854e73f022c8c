"""JSON values as scripts observe them: the *missing* sentinel, JavaScript
truthiness and loose equality, and JavaScript-style number formatting.

Scripts written for ql.io rely on JavaScript semantics (``{}`` is true, ``1 ==
"1"``), so Python's own ``bool()`` and ``==`` are never used on script values.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

from .errors import QlError


class _Missing:
    """No value at all (JavaScript ``undefined``); distinct from JSON ``null``."""

    __slots__ = ()
    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self):
        return (_Missing, ())


MISSING: Any = _Missing()


def is_missing(value: Any) -> bool:
    return value is MISSING


def is_nullish(value: Any) -> bool:
    """Missing or JSON null: what fallbacks and prerequisites treat as 'no value'."""
    return value is MISSING or value is None


def truthy(value: Any) -> bool:
    """JavaScript truthiness: ``{}`` and ``[]`` are true, ``0``, ``""``, ``NaN`` false."""
    if value is MISSING or value is None or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, (int, float)):
        return not (value == 0 or (isinstance(value, float) and math.isnan(value)))
    if isinstance(value, str):
        return value != ""
    return True


def _to_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        if text == "":
            return 0.0
        try:
            return float(int(text, 0)) if text.lower().startswith(("0x", "0o", "0b")) else float(text)
        except ValueError:
            return None
    return None


def loose_equals(a: Any, b: Any) -> bool:
    """JavaScript ``==`` restricted to what scripts can observe on JSON scalars."""
    if a is MISSING:
        a = None
    if b is MISSING:
        b = None
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return a is b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    na, nb = _to_number(a), _to_number(b)
    if na is None or nb is None:
        return False
    return na == nb


def format_number(value: int | float) -> str:
    """Number → text as JavaScript's ``String(n)`` does (``10``, ``1.5``, ``1e+21``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)  # integers are exact (ids), unlike JavaScript's doubles
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        mantissa, exp = text.split("e")
        sign = "-" if exp.startswith("-") else "+"
        digits = exp.lstrip("+-").lstrip("0") or "0"
        if sign == "-" and abs(value) >= 1e-6:
            return f"{value:.{abs(int(exp)) + 16}f}".rstrip("0")
        return f"{mantissa}e{sign}{digits}"
    return text


def to_text(value: Any) -> str:
    """Scalar → text for URIs, headers and mixed strings; objects/arrays as JSON."""
    if isinstance(value, str):
        return value
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None or value is MISSING:
        return ""
    if isinstance(value, (int, float)):
        return format_number(value)
    return dump_json(value)


def is_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool))


def strip_missing(value: Any) -> Any:
    """Output form: missing members dropped, missing array elements become null."""
    if isinstance(value, dict):
        return {k: strip_missing(v) for k, v in value.items() if v is not MISSING}
    if isinstance(value, list):
        return [None if v is MISSING else strip_missing(v) for v in value]
    if value is MISSING:
        return None
    return value


def _json_default(value: Any) -> Any:
    if value is MISSING:
        return None
    if isinstance(value, (set, tuple)):
        return list(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    raise TypeError(f"{type(value).__name__} is not a JSON value")


class _HasMissing(Exception):
    pass


def _refuse_missing(value: Any) -> Any:
    if value is MISSING:
        raise _HasMissing
    return _json_default(value)


def _output_form(value: Any) -> Any:
    """``strip_missing`` that also turns NaN and ±Infinity into None (JSON null)."""
    if isinstance(value, dict):
        return {k: _output_form(v) for k, v in value.items() if v is not MISSING}
    if isinstance(value, (list, tuple)):
        return [None if v is MISSING else _output_form(v) for v in value]
    if value is MISSING or (isinstance(value, float) and not math.isfinite(value)):
        return None
    return value


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_surrogate(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


class ValueTooDeep(QlError):
    """A value nested deeper than Python can walk (built up by a script)."""

    status = 400


def dump_json_bytes(value: Any) -> bytes:
    """``dump_json`` as UTF-8 bytes, what an answer sends: orjson's bytes as they are on
    its hot path, with no round trip through text."""
    try:
        return orjson.dumps(value, default=_refuse_missing)
    except TypeError:  # what orjson refuses: dump_json's slower path knows it
        return dump_json(value).encode("utf-8")


def dump_json(value: Any, *, indent: int | None = None) -> str:
    """Serialise a script value as strict JSON (RFC 8259), text that encodes as UTF-8.

    - Missing members are omitted, missing elements are null.
    - NaN, Infinity and -Infinity become null: JSON has no such numbers, yet Python's
      json reads them from upstream bodies and an XML number can overflow to infinity.
      null is what JavaScript's JSON.stringify (ql.io) writes for them; failing the
      whole answer over one such number would help nobody.
    - A lone surrogate (``"\\ud800"`` in a script or an upstream's JSON) is written as
      its ``\\ud800`` escape: it has no UTF-8 form, so written raw the answer could
      not be encoded at all.

    The hot path is one ``orjson.dumps`` (compact output only): most values (parsed
    upstream bodies) are plain JSON. Whatever it refuses — a missing marker, a lone
    surrogate, an integer beyond 64 bits, a non-text key — goes to ``json.dumps`` with
    ``allow_nan=False``, and only a value holding a missing marker or a non-finite
    number gets the slower walk. Only non-ASCII text is checked for surrogates.
    """
    if indent is None:
        try:  # orjson: several times faster, and it writes non-finite floats as null itself
            return orjson.dumps(value, default=_refuse_missing).decode()
        except TypeError:
            # JSONEncodeError: a missing marker, a lone surrogate, an integer beyond 64 bits,
            # a key that is not text, nesting past 254 levels — json's path below knows them all
            pass
    separators = None if indent else (",", ":")
    try:
        try:
            text = json.dumps(
                value,
                ensure_ascii=False,
                allow_nan=False,
                indent=indent,
                separators=separators,
                default=_refuse_missing,
            )
        except (_HasMissing, ValueError):  # ValueError: a non-finite float
            text = json.dumps(
                _output_form(value),
                ensure_ascii=False,
                allow_nan=False,
                indent=indent,
                separators=separators,
                default=_json_default,
            )
    except RecursionError:  # a script can nest a value in itself, assignment by assignment
        raise ValueTooDeep("the value is nested too deeply to write as JSON") from None
    if not text.isascii():
        try:
            text.encode("utf-8")  # what the answer will do; 2.5x faster than a regex search
        except UnicodeEncodeError:
            text = _LONE_SURROGATE.sub(_escape_surrogate, text)
    return text
