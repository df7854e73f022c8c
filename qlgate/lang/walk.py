"""One walk over the syntax tree, for every analysis that must see all of it.

The AST is frozen dataclasses whose fields hold other nodes, tuples of them, and
JSON literal values (dicts and lists). Planning (what a statement refers to), the
trust check (what a caller's script may do), finding a script's writes and the
tables a route reads all ask the same question — "every node under this one" —
and each used to answer it with a recursion of its own, each a chance to miss a
field. ``walk`` answers it once; new node types are covered without edits here.

What the walk yields: every syntax node (itself first, then its fields in the
order they are declared, depth first) and every ``Template`` of quoted text,
JSON literals included. A ``Template`` is yielded but not entered (its tokens are
text, read by the analyses that care). Positions and ``Path``s are values, not
syntax: neither yielded nor entered. Strings and numbers are leaves, not nodes.

The walk keeps its own stack rather than recursing, so a deeply nested JSON
literal cannot exhaust Python's recursion limit in the middle of a check.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import fields, is_dataclass
from typing import Any

from .ast import Pos
from .paths import Path
from .templates import Template

_SKIPPED = (Pos, Path)
# a field declared with these types only holds no syntax (see _leaves_only)
_WORD = re.compile(r"[A-Za-z_]\w*")
_LEAF_TYPE_NAMES = {"str", "int", "float", "bool", "None", "tuple", "Pos", "Path"}
# what a value is to the walk, worked out once per type: the walk runs on every compile
_LEAF, _SEQUENCE, _MAPPING, _TEMPLATE, _NODE = range(5)
_kinds: dict[type, int] = {}
_fields_of: dict[type, tuple[str, ...]] = {}


def _kind(kind: type) -> int:
    found = _kinds.get(kind)
    if found is None:
        if issubclass(kind, (tuple, list)):
            found = _SEQUENCE
        elif issubclass(kind, dict):
            found = _MAPPING
        elif issubclass(kind, Template):
            found = _TEMPLATE
        elif is_dataclass(kind) and not issubclass(kind, _SKIPPED):
            found = _NODE
            _fields_of[kind] = tuple(f.name for f in fields(kind) if not _leaves_only(f.type))
        else:
            found = _LEAF
        _kinds[kind] = found
    return found


def _leaves_only(annotation: Any) -> bool:
    """Does a field's declared type hold text, numbers and positions only (``str``,
    ``int | None``, ``tuple[str, ...]``)? Then the walk need not look inside it."""
    names = set(_WORD.findall(annotation if isinstance(annotation, str) else repr(annotation)))
    return bool(names) and names <= _LEAF_TYPE_NAMES


def children(node: Any) -> list[Any]:
    """What sits directly under ``node``: the syntax nodes and templates among its
    field values, containers flattened (a tuple of conditions, a JSON object's
    values), leaves left out."""
    if _kind(type(node)) != _NODE:
        return []
    return list(walk([getattr(node, name) for name in _fields_of[type(node)]], into=_nothing_below))


def _nothing_below(node: Any) -> bool:
    return False


def walk(node: Any, *, into: Callable[[Any], bool] | None = None) -> Iterator[Any]:
    """Every syntax node and ``Template`` at or under ``node`` (which may also be a
    tuple or list of nodes), depth first: each node before what is under it, its
    fields in the order they are declared. ``into(n)`` false: ``n`` is yielded
    but what is under it is not (``run._skip`` stops at lines, the planner at UDF
    calls whose arguments are row paths)."""
    stack = [node]
    pop, push, extend = stack.pop, stack.append, stack.extend
    kinds = _kinds
    while stack:
        current = pop()
        kind = kinds.get(type(current))
        if kind is None:
            kind = _kind(type(current))
        if kind == _LEAF:
            continue
        if kind == _SEQUENCE:
            extend(reversed(current))
            continue
        if kind == _MAPPING:
            extend(reversed(list(current.values())))
            continue
        yield current
        if kind == _TEMPLATE or (into is not None and not into(current)):
            continue
        for name in reversed(_fields_of[type(current)]):
            push(getattr(current, name))
