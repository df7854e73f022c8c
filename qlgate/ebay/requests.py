"""Request XML for eBay's Trading and Finding calls, built from dotted column
names in the catalog's schema order.

A call's schema is an ordered list of field paths (``Offer``, ``Offer.MaxBid``,
``Offer.MaxBid.@currencyID``…). Each path is looked up in the parameters —
as a flat dotted name (``Offer.MaxBid`` from a column list) or by walking
nested objects (``{"Offer": {"MaxBid": …}}``) — and rendered as an element in
schema order. Lists repeat the element; empty and missing values produce no
element at all, and a container with nothing inside is left out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ..tables.params import lookup_dotted, walk
from ..values import MISSING, to_text


@dataclass(frozen=True)
class Field:
    path: str
    name: str
    parent: str
    attribute: bool


@dataclass
class CallSchema:
    call: str
    root: str
    namespace: str
    fields: tuple[Field, ...]
    declaration: bool = True

    def __post_init__(self) -> None:
        self.children: dict[str, list[Field]] = {}
        self.attributes: dict[str, list[Field]] = {}
        for f in self.fields:
            (self.attributes if f.attribute else self.children).setdefault(f.parent, []).append(f)
        self.paths = {f.path for f in self.fields}

    def is_field(self, name: str) -> bool:
        return name in self.paths or any(p.startswith(name + ".") for p in self.paths)


def _field(spec: str) -> Field:
    """``Offer.MaxBid.@currencyID`` → an attribute of ``Offer.MaxBid``."""
    parts = spec.split(".")
    attribute = parts[-1].startswith("@")
    name = parts[-1].lstrip("@")
    parent = ".".join(parts[:-1])
    return Field(".".join([*parts[:-1], name]), name, parent, attribute)


class Schemas:
    """The request schemas of one service, loaded once from its schema.json."""

    def __init__(self, calls: Mapping[str, CallSchema]):
        self.calls = dict(calls)

    @classmethod
    def load(cls, path: str | Path) -> Schemas:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        common = [_field(f) for f in data.get("common_fields", [])]
        calls = {}
        for call, spec in data["calls"].items():
            fields = common + [_field(f) for f in spec["fields"]]
            calls[call] = CallSchema(
                call,
                spec.get("root", call + "Request"),
                data["namespace"],
                tuple(fields),
                data.get("declaration", True),
            )
        return cls(calls)

    def __getitem__(self, call: str) -> CallSchema:
        return self.calls[call]


# ------------------------------------------------------------------ value lookup


class _Params:
    """Root context: flat dotted names first, then a walk through nested objects."""

    def __init__(self, params: Any):
        self.params = params

    def lookup(self, name: str) -> Any:
        getter = getattr(self.params, "lookup", None)
        return getter(name) if getter is not None else self.params.get(name, MISSING)

    def get(self, path: str) -> Any:
        return lookup_dotted(self, path)


class _Object:
    """Context inside one item of a repeated container: paths relative to it."""

    def __init__(self, value: Any):
        self.value = value

    def get(self, path: str) -> Any:
        return walk(self.value, path.split("."))


def _empty(value: Any) -> bool:
    return value is MISSING or value is None or value == "" or value == [] or value == {}


# ------------------------------------------------------------------ rendering


def _attributes(schema: CallSchema, field: Field, context: Any, base: str, value: Any) -> str:
    out = []
    for attr in schema.attributes.get(field.path, ()):
        attr_value = value.get(attr.name, MISSING) if isinstance(value, dict) else MISSING
        if attr_value is MISSING:
            attr_value = context.get(_relative(attr.path, base))
        if not _empty(attr_value) and not isinstance(attr_value, (dict, list)):
            out.append(f" {attr.name}={quoteattr(to_text(attr_value))}")
    return "".join(out)


def _relative(path: str, base: str) -> str:
    return path[len(base) + 1 :] if base else path


def _text(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("$t", value.get("Value", value.get("value", "")))
    return escape(to_text(value))


def _render(schema: CallSchema, parent: str, context: Any, base: str, out: list[str]) -> None:
    for field in schema.children.get(parent, ()):
        value = context.get(_relative(field.path, base))
        has_children = field.path in schema.children
        items = value if isinstance(value, list) else [value]
        for item in items:
            if has_children and not _empty(item) and isinstance(item, dict):
                inner: list[str] = []
                _render(schema, field.path, _Object(item), field.path, inner)
                attrs = _attributes(schema, field, _Object(item), field.path, item)
                if inner or attrs:
                    out.append(f"<{field.name}{attrs}>{''.join(inner)}</{field.name}>")
            elif has_children and _empty(item):
                # the container itself was not given: its children may be (flat dotted names)
                if value is not MISSING and not _empty(value):
                    continue
                inner = []
                _render(schema, field.path, context, base, inner)
                attrs = _attributes(schema, field, context, base, MISSING)
                if inner or attrs:
                    out.append(f"<{field.name}{attrs}>{''.join(inner)}</{field.name}>")
                break
            elif isinstance(item, dict) and not _empty(item) and not schema.attributes.get(field.path):
                out.append(_generic(field.name, item))  # a type the schema does not expand
            elif not _empty(item):
                attrs = _attributes(schema, field, context, base, item)
                out.append(f"<{field.name}{attrs}>{_text(item)}</{field.name}>")
            elif schema.attributes.get(field.path):
                attrs = _attributes(schema, field, context, base, MISSING)
                if attrs:
                    out.append(f"<{field.name}{attrs}/>")


def _generic(name: str, value: Any) -> str:
    """Objects under fields the schema leaves unexpanded: members in their own
    order, ``@name`` as attributes, ``$t`` as text, lists repeated."""
    if isinstance(value, list):
        return "".join(_generic(name, v) for v in value if not _empty(v))
    if not isinstance(value, dict):
        return f"<{name}>{escape(to_text(value))}</{name}>"
    attrs = "".join(f" {k[1:]}={quoteattr(to_text(v))}" for k, v in value.items() if k.startswith("@"))
    inner = "".join(
        escape(to_text(v)) if k == "$t" else _generic(k, v)
        for k, v in value.items()
        if not k.startswith("@") and not _empty(v)
    )
    return f"<{name}{attrs}>{inner}</{name}>"


def request_xml(schema: CallSchema, params: Any) -> str:
    """The call's request document from ``params`` (a parameter view or a dict)."""
    out: list[str] = []
    _render(schema, "", _Params(params), "", out)
    head = '<?xml version="1.0" encoding="utf-8"?>\n' if schema.declaration else ""
    return f'{head}<{schema.root} xmlns="{schema.namespace}">{"".join(out)}</{schema.root}>'


def unknown_columns(schema: CallSchema, names: Iterable[str], ignore: Iterable[str] = ()) -> list[str]:
    """Columns a statement gave that the call does not have (the template ignores them)."""
    skip = set(ignore)
    return [n for n in names if n not in skip and not schema.is_field(n)]
