"""Typed JSON request bodies from dotted columns, for Jinja2 body templates.

A JSON body written as text (``{"qty": {{ params.qty }}}``) is only right when every
value is present and of the right kind: a missing optional member leaves
``"qty": ,`` behind, a number given as text stays a string, a list is not an
array. The tables generated from OpenAPI contracts (``qlgate import openapi``, the
eBay REST tables) therefore write their body template as the body's *shape*, a
Jinja2 dict literal whose leaves name their column and schema type, and leave the
JSON to two filters::

    {{ {
      "sku": params | field("sku", "string"),
      "price": {"value": params | field("price.value", "number")},
    } | json_body }}

``field`` looks a column up (its flat dotted name, else by walking nested objects,
so ``price.value`` and a whole ``price`` object both work) and converts it to the
schema's type; a column with no value gives ``ABSENT``. ``json_body`` drops absent
members, and objects left empty, then writes JSON. A value that cannot have the
schema's type (``"abc"`` for an integer, ``1.5`` for an integer, ``NaN`` or
``1e400`` for a number) is the caller's mistake: a 400 naming the column, before
anything is sent. Integers are exact (text is never read through a float), and the
JSON written is strict (no ``NaN``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from markupsafe import Markup

from ..errors import InvalidParameter
from ..values import MISSING, to_text


class _Absent:
    """A member with no value: left out of the body."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()
TRUE_TEXT = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def _lookup(params: Any, path: str) -> Any:
    if not isinstance(params, Mapping):
        return MISSING
    value = params.get(path, MISSING)
    if value is not MISSING or "." not in path:
        return value
    value = params
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return MISSING
        value = value[part]
    return value


def _bad(path: str, value: Any, kind: str) -> InvalidParameter:
    return InvalidParameter(f"column {path}: {to_text(value)[:80]!r} is not {kind}", param=path)


def convert(value: Any, kind: str, path: str = "value") -> Any:
    """``value`` as the schema type ``kind``: ``string``, ``integer``, ``number``,
    ``boolean``, ``object`` or ``any`` (kept), or an array of one of them (``integer[]``)."""
    if value is None:
        return None
    if kind.endswith("[]"):
        items = value if isinstance(value, list) else [value]
        return [convert(item, kind[:-2], path) for item in items]
    if kind == "string":
        return value if isinstance(value, str) else to_text(value)
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        found = TRUE_TEXT.get(to_text(value).strip().lower())
        if found is None:
            raise _bad(path, value, "a boolean")
        return found
    if kind in ("integer", "number"):
        return _number(value, kind, path)
    return value


_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z")  # JSON's number grammar
_MAX_DIGITS = 400  # longer text is not a number anyone means (and int() of it costs)


def _number(value: Any, kind: str, path: str) -> int | float:
    """A finite number for ``number``, an exact int for ``integer``: text is read as an
    int or a Decimal, never through a float, so 12345678901234567890 stays itself and
    12345678901234567890.5 is not an integer; NaN and Infinity are no numbers."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal, str)):
        raise _bad(path, value, "a number")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _bad(path, value, "a finite number")
        if kind == "integer" and not value.is_integer():
            raise _bad(path, value, "an integer")
        return int(value) if kind == "integer" else value
    text = str(value).strip()
    if len(text) > _MAX_DIGITS or not _NUMBER.match(text):  # no NaN, Infinity, 0x1f, 1_000
        raise _bad(path, value, "a number")
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    exact = Decimal(text)
    if kind == "integer":
        if exact != exact.to_integral_value() or exact.adjusted() > _MAX_DIGITS:
            raise _bad(path, value, "an integer")
        return int(exact)
    number = float(exact)
    if not math.isfinite(number):
        raise _bad(path, value, "a finite number")
    return number


def field(params: Any, path: str, kind: str = "any") -> Any:
    """Jinja2 filter: the column ``path`` converted to ``kind``, or ABSENT."""
    value = _lookup(params, path)
    if value is MISSING:
        return ABSENT
    return convert(value, kind, path)


def prune(value: Any) -> Any:
    """``value`` without absent members, nor objects that end up empty."""
    if isinstance(value, Mapping):
        out = {}
        for key, member in value.items():
            member = prune(member)
            if member is ABSENT or (isinstance(member, dict) and not member):
                continue
            out[key] = member
        return out
    if isinstance(value, list):
        return [v for v in (prune(item) for item in value) if v is not ABSENT]
    return value


def json_body(value: Any) -> Markup:
    """Jinja2 filter: the body shape as JSON text (``{}`` when nothing is given)."""
    pruned = prune(value)
    if pruned is ABSENT:
        pruned = {}
    try:  # strict JSON: NaN and Infinity have no spelling in it
        return Markup(json.dumps(pruned, ensure_ascii=False, separators=(",", ":"), allow_nan=False))
    except ValueError:
        raise InvalidParameter("the body holds a number that is not finite (NaN or Infinity)") from None


FILTERS = {"field": field, "json_body": json_body}
