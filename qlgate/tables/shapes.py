"""Stable shapes: the paths of an answer that are always JSON arrays.

An XML answer turns a child that occurs once into a value and one that repeats
into an array (spec §10.7.1), so a search with one hit has another shape than a
search with two, and a client written against one breaks on the other. A table
(``with arrays 'searchResult.item', …``) or a route declares the paths that are
lists; every answer is then brought to that shape: a single value is wrapped in
an array, and an absent (or null) member becomes ``[]`` where its parent exists.

Paths are read from the value they shape (a table's result set, a route's
answer), as ``resultset`` paths are: names joined by ``.`` (a name may hold any
other character, ``:`` of XML prefixes included). An array met between steps
is shaped element by element, so ``searchResult.item.paymentMethod`` reaches
the ``paymentMethod`` of every item. A path written with a leading ``..``
(``..Errors``, ``..NameValueList.Value``) matches at any depth; it wraps what it
finds and adds nothing, since "where the parent exists" has no meaning for a
member that may sit anywhere.

Shaping copies what it changes (the value it is given may be held elsewhere: a
patch's answer, a script's variable) and is idempotent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import QlError

MAX_PATHS = 2000  # a declaration longer than this is a generator gone wrong
MAX_PATH_CHARS = 512


class ArrayPathError(QlError):
    """A ``with arrays`` path that cannot be read."""

    status = 400


@dataclass
class _Node:
    """One step of a path trie: wrap the member here, then shape below it."""

    wrap: bool = False
    children: dict[str, _Node] = field(default_factory=dict)


@dataclass(frozen=True)
class ArrayPaths:
    """The compiled ``with arrays`` paths of a table mapping or a route."""

    paths: tuple[str, ...]
    _fixed: dict[str, _Node] = field(repr=False, compare=False, default_factory=dict)
    _anywhere: dict[str, _Node] = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def compile(cls, paths: tuple[str, ...] | list[str], *, line: int | None = None) -> ArrayPaths:
        """Check and compile; a path that is not one is an ``ArrayPathError`` naming it."""
        if len(paths) > MAX_PATHS:
            raise ArrayPathError(f"with arrays: {len(paths)} paths; the limit is {MAX_PATHS}", line=line)
        fixed: dict[str, _Node] = {}
        anywhere: dict[str, _Node] = {}
        for path in dict.fromkeys(paths):
            anywhere_path = path.startswith("..")
            steps = _steps(path[2:] if anywhere_path else path, path, line)
            root = anywhere if anywhere_path else fixed
            node = root.setdefault(steps[0], _Node())
            for step in steps[1:]:
                node = node.children.setdefault(step, _Node())
            node.wrap = True
        return cls(tuple(dict.fromkeys(paths)), fixed, anywhere)

    def __bool__(self) -> bool:
        return bool(self.paths)

    def apply(self, value: Any) -> Any:
        """``value`` with every declared path an array. ``value`` itself is not changed
        (a patch's answer or a script's variable may be held elsewhere): what changes
        is copied, the rest shared."""
        if self._fixed:
            value = _shape(value, self._fixed, create=True)
        if self._anywhere:
            value = _shape_anywhere(value, self._anywhere)
        return value


def _steps(text: str, path: str, line: int | None) -> list[str]:
    shown = path if len(path) <= 80 else path[:77] + "..."
    if len(path) > MAX_PATH_CHARS:
        raise ArrayPathError(f"with arrays: the path '{shown}' is longer than {MAX_PATH_CHARS} characters", line=line)
    steps = text.split(".")
    if not text or any(not step for step in steps):
        raise ArrayPathError(
            f"with arrays: '{shown}' is not a path (names joined by '.', optionally after a leading '..')",
            line=line,
        )
    return steps


def _wrapped(member: Any) -> list[Any]:
    return [] if member is None else [member]


_ABSENT = object()


def _each(values: list[Any], shape: Any) -> list[Any]:
    """``shape`` applied to every element; the same list when none changed."""
    shaped = [shape(element) for element in values]
    return values if all(new is old for new, old in zip(shaped, values)) else shaped


def _shape(value: Any, trie: dict[str, _Node], *, create: bool) -> Any:
    """Apply the trie below ``value``; an array is shaped element by element."""
    if isinstance(value, list):
        return _each(value, lambda element: _shape(element, trie, create=create))
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] | None = None
    for name, node in trie.items():
        member = value.get(name, _ABSENT)
        if member is _ABSENT:
            if not (node.wrap and create):
                continue
            new: Any = []
        else:
            new = _wrapped(member) if node.wrap and not isinstance(member, list) else member
            if node.children:
                new = _shape(new, node.children, create=create)
        if new is not member:
            if out is None:
                out = dict(value)
            out[name] = new
    return value if out is None else out


def _shape_anywhere(value: Any, trie: dict[str, _Node]) -> Any:
    """The ``..`` paths: every member whose name starts one, at any depth."""
    if isinstance(value, list):
        return _each(value, lambda element: _shape_anywhere(element, trie))
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] | None = None
    for name, member in value.items():
        new = member
        node = trie.get(name)
        if node is not None:
            if node.wrap and not isinstance(new, list):
                new = _wrapped(new)
            if node.children:
                new = _shape(new, node.children, create=False)
        if isinstance(new, (dict, list)):
            new = _shape_anywhere(new, trie)
        if new is not member:
            if out is None:
                out = dict(value)
            out[name] = new
    return value if out is None else out


@lru_cache(maxsize=256)
def array_paths(paths: tuple[str, ...]) -> ArrayPaths:
    """The compiled form of ``paths``, compiled once: for a caller that holds only the
    declaration (a route's ``ast.RouteSpec.arrays``), as the engine does at run time."""
    return ArrayPaths.compile(paths)
