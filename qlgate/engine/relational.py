"""Relational operations on JSON values: rows, filters, projection, limit/offset
and the merge of fan-out results (spec §8). Pure functions, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..lang import ast
from ..lang.paths import Path, evaluate, matches
from ..values import MISSING, loose_equals


def as_rows(value: Any) -> list[Any]:
    """An array is its elements; anything else is one row; missing has none."""
    if value is MISSING:
        return []
    return value if isinstance(value, list) else [value]


def strip_alias(path: Path, alias: str | None) -> Path:
    if alias and path.head == alias and len(path.steps) > 1:
        return path.without_head()
    return path


def row_matches(row: Any, path: Path, expected: Sequence[Any]) -> bool:
    """Loose equality of any value the path yields with any expected value."""
    found = matches(path, row)
    candidates: list[Any] = []
    for value in found:
        if isinstance(value, list) and path.has_descendant:
            candidates.extend(value)
        else:
            candidates.append(value)
    return any(loose_equals(c, e) for c in candidates for e in expected)


def expected_values(value: Any) -> list[Any]:
    if value is MISSING:
        return []
    return value if isinstance(value, list) else [value]


def projector(columns: Sequence[ast.Column], alias: str | None = None) -> Callable[[Any], Any]:
    """A function shaping one row per §8.5, with paths prepared once (UDF columns
    are filled in later)."""
    paths = [strip_alias(c.path, alias) if c.path else None for c in columns]
    if len(columns) == 1 and columns[0].alias is None:
        (path,) = paths
        if path is None:
            return lambda row: MISSING
        if path.keys is not None and len(path.keys) == 1:
            key = path.keys[0]  # ``select id``: the commonest projection, one dict lookup per row
            return lambda row: row.get(key, MISSING) if type(row) is dict else evaluate(path, row)
        return lambda row: evaluate(path, row)
    if columns[0].alias is not None:
        named = [(c.alias, p) for c, p in zip(columns, paths)]

        def as_object(row: Any) -> dict:
            out = {}
            for name, path in named:
                value = evaluate(path, row) if path else MISSING
                if value is not MISSING:
                    out[name] = value
            return out

        return as_object
    return lambda row: [evaluate(p, row) if p else MISSING for p in paths]


def project(
    value: Any,
    columns: Sequence[ast.Column] | None,
    alias: str | None = None,
    shape: Callable[[Any], Any] | None = None,
) -> Any:
    """§8.5: ``*`` keeps the value; empty/missing stays; otherwise an array of rows."""
    if columns is None:
        return value
    if value is MISSING or (isinstance(value, list) and not value):
        return value
    shape = shape or projector(columns, alias)
    return [shape(row) for row in as_rows(value)]


def answer_projector(columns: Sequence[ast.Column], alias: str | None = None) -> Callable[[Any], Any]:
    """``project`` of one answer with these columns, prepared once for all the answers
    of a statement. ``select id`` (the commonest) reads each row in one comprehension,
    not through a function call per row."""
    shape = projector(columns, alias)
    path = strip_alias(columns[0].path, alias) if len(columns) == 1 and columns[0].path else None
    if path is None or columns[0].alias is not None or path.keys is None or len(path.keys) != 1:
        return lambda value: project(value, columns, shape=shape)
    key = path.keys[0]

    def by_key(value: Any) -> Any:
        if value is MISSING or (isinstance(value, list) and not value):
            return value
        return [row.get(key, MISSING) if type(row) is dict else evaluate(path, row) for row in as_rows(value)]

    return by_key


def slice_rows(rows: list[Any], limit: int | None, offset: int | None) -> list[Any]:
    start = offset or 0
    if limit is None:
        return rows[start:]
    return rows[start : start + limit]


def merge_results(results: Iterable[Any], block: bool) -> Any:
    """§8.3 merge of per-request results, in request order."""
    results = [r for r in results if r is not MISSING]
    if block:
        return results
    if not results:
        return MISSING
    if len(results) == 1:
        return results[0]
    if isinstance(results[0], list):
        merged: list[Any] = []
        for r in results:
            merged.extend(r if isinstance(r, list) else [r])
        return merged
    out: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for r in results:
        if not isinstance(r, dict):
            continue
        for key, value in r.items():
            if key not in out:
                out[key] = value
                counts[key] = 1
                continue
            current = out[key]
            if counts[key] == 1:
                current = list(current) if isinstance(current, list) else [current]
            counts[key] += 1
            if isinstance(value, list):
                current.extend(value)
            else:
                current.append(value)
            out[key] = current
    return out
