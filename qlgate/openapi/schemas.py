"""Schemas of an OpenAPI or Swagger document as small resolved nodes.

The writer needs only a schema's shape: types, members, array items and which
members are required. ``$ref`` chains are followed (local ``#/…`` pointers; an
external file is not fetched, its node is marked ``truncated``), ``allOf`` parts
are merged, ``oneOf``/``anyOf`` alternatives of objects are merged into one set of
members (a column may fill any of them), and a schema that refers to itself stops
at the second visit (``recursive``) — the same node shape eBay's digest uses.
"""

from __future__ import annotations

from typing import Any

from .checks import SpecError, arr, at, obj

MAX_DEPTH = 8
SCALARS = ("string", "integer", "number", "boolean")

__all__ = ["SpecError", "deref", "node", "param_kind", "pointer"]


def pointer(doc: dict[str, Any], ref: str) -> Any:
    """The value a local ``$ref`` (``#/components/schemas/Pet``) points at."""
    if not ref.startswith("#/"):
        return None
    node: Any = doc
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise SpecError(f"$ref {ref[:200]!a} points at nothing")
    return node


def _ref(value: dict[str, Any], where: str) -> str:
    ref = value["$ref"]
    if not isinstance(ref, str):
        raise SpecError(f"{at(where, '$ref')}: expected a string, got {type(ref).__name__}")
    return ref


def deref(doc: dict[str, Any], value: Any, limit: int = 20, where: str = "#") -> Any:
    """A parameter, body or response object with its ``$ref`` chain followed."""
    while isinstance(value, dict) and "$ref" in value and limit > 0:
        target = pointer(doc, _ref(value, where))
        if target is None:
            return {}
        value, limit = target, limit - 1
    return value


def _type_of(schema: dict[str, Any], where: str = "#") -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):  # OpenAPI 3.1: ["string", "null"]
        kind = next((k for k in kind if k != "null"), None)
    if kind is not None and not isinstance(kind, str):
        raise SpecError(f"{at(where, 'type')}: expected a type name, got {type(kind).__name__}")
    if kind is None:
        if "properties" in schema or "additionalProperties" in schema:
            return "object"
        if "items" in schema:
            return "array"
    return kind


def _merge(target: dict[str, Any], part: dict[str, Any]) -> None:
    if part.get("type") and not target.get("type"):
        target["type"] = part["type"]
    for name, member in (part.get("properties") or {}).items():
        target.setdefault("properties", {}).setdefault(name, member)
    for name in part.get("required") or ():
        if name not in target.setdefault("required", []):
            target["required"].append(name)
    for key in ("items", "format", "example", "default"):
        if key in part and key not in target:
            target[key] = part[key]


def node(
    doc: dict[str, Any], schema: Any, depth: int = 0, seen: tuple[str, ...] = (), where: str = "#"
) -> dict[str, Any]:
    """``schema`` as a resolved node: ``{"type", "format", "required", "properties",
    "items", "ref", "example", "truncated", "recursive"}`` (absent keys left out).
    ``where`` is the schema's JSON pointer, for errors."""
    if schema is None or isinstance(schema, bool):  # absent, or OpenAPI 3.1's true/false
        return {}
    schema = obj(schema, where)
    if "$ref" in schema:
        ref = _ref(schema, where)
        name = ref.rsplit("/", 1)[-1]
        if ref in seen:
            return {"type": "object", "ref": name, "recursive": True}
        target = pointer(doc, ref)
        if target is None:
            return {"type": "object", "ref": name, "truncated": True}
        resolved = node(doc, target, depth, (*seen, ref), ref)
        return {"ref": name, **resolved} if "ref" not in resolved else resolved
    if depth > MAX_DEPTH:
        return {"type": _type_of(schema, where) or "object", "truncated": True}
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k not in ("allOf", "oneOf", "anyOf")}
    merged["properties"] = dict(obj(schema.get("properties"), at(where, "properties")))
    merged["required"] = list(arr(schema.get("required"), at(where, "required")))
    for key in ("allOf", "oneOf", "anyOf"):
        for i, part in enumerate(arr(schema.get(key), at(where, key))):
            resolved_part = node(doc, part, depth, seen, at(where, key, i))
            _merge(merged, resolved_part)
    if not merged["properties"] and "properties" not in schema:
        del merged["properties"]
    out: dict[str, Any] = {}
    kind = _type_of(merged, where)
    if kind:
        out["type"] = kind
    for key in ("format", "default", "ref"):
        if key in merged and not isinstance(merged[key], (dict, list)):
            out[key] = merged[key]
    if "example" in merged:
        out["example"] = merged["example"]
    if kind == "object" or "properties" in merged:
        members = merged.get("properties") or {}
        props = {str(k): node(doc, v, depth + 1, seen, at(where, "properties", k)) for k, v in members.items()}
        if props:
            out["properties"] = props
        required = [str(r) for r in merged.get("required") or () if str(r) in props]
        if required:
            out["required"] = required
    if kind == "array":
        out["items"] = node(doc, merged.get("items"), depth + 1, seen, at(where, "items"))
    if merged.get("recursive"):
        out["recursive"] = True
    if merged.get("truncated"):
        out["truncated"] = True
    return out


def param_kind(schema: dict[str, Any], where: str = "#") -> str:
    """A parameter's type as a column kind: a scalar type, or ``<type>[]``."""
    kind = _type_of(schema, where) or "string"
    if kind == "array":
        inner = _type_of(obj(schema.get("items"), at(where, "items")), at(where, "items")) or "string"
        return (inner if inner in SCALARS else "string") + "[]"
    return kind if kind in SCALARS else "string"
