"""How the shell shows a value: ``json`` (what ``qlgate run`` prints, indented
on a terminal) or ``table`` (rows of objects as columns, psql's way).

Script values are JSON and often not tabular, so ``table`` shows what has rows
— an array of objects (one column per member, in order of first appearance), an
array of scalars, one object (a row of members) — and anything else as JSON. A
cell holding an object or array is compact JSON, cut to ``MAX_CELL``
characters: the table is for reading; ``.output json`` shows all.
"""

from __future__ import annotations

from typing import Any

from ..values import MISSING, dump_json, strip_missing

MODES = ("json", "table")
MAX_CELL = 60


def render(value: Any, mode: str, *, indent: int | None = None) -> str:
    """``value`` as text in ``mode``; JSON is compact unless ``indent`` is given."""
    if mode == "table":
        table = as_table(value)
        if table is not None:
            return table
    return dump_json(value, indent=indent)


def as_table(value: Any) -> str | None:
    """``value`` as a text table, or None when it has no rows to show."""
    value = strip_missing(value)
    if isinstance(value, dict) and value:
        rows = [value]
    elif isinstance(value, list) and value and all(isinstance(row, dict) for row in value):
        rows = value
    elif isinstance(value, list) and value and not any(isinstance(v, (dict, list)) for v in value):
        rows = [{"value": v} for v in value]
    else:
        return None
    columns = list(dict.fromkeys(key for row in rows for key in row))
    if not columns:
        return None
    cells = [[_cell(row.get(column, MISSING)) for column in columns] for row in rows]
    widths = [max([len(column)] + [len(line[i]) for line in cells]) for i, column in enumerate(columns)]
    lines = [
        " | ".join(column.ljust(width) for column, width in zip(columns, widths)).rstrip(),
        "-+-".join("-" * width for width in widths),
    ]
    lines += [" | ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in cells]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is MISSING:
        return ""
    if value is None:
        return "null"
    text = value if isinstance(value, str) else dump_json(value)
    text = text.replace("\r", " ").replace("\n", " ")
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"
