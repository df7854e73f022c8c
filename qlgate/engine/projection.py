"""From source rows to a select's answer when UDFs take part (§8.5, §12.3):
projection, UDF columns filled row by row, UDF conditions that replace or drop
rows. A select without UDFs projects per request instead (``relational.projector``),
while its answers arrive.

``column_value(path, row)`` reads a column from a source row; a join's rows are
pairs, so each caller says how.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..errors import QlError
from ..lang import ast
from ..lang.paths import Path
from ..values import MISSING
from .context import RunContext
from .operands import plain_and_udf_conditions
from .udfs import UdfModule, call_udf

ColumnValue = Callable[[Path, Any], Any]


async def finish_rows(
    run: RunContext, stmt: ast.Select, rows: list, column_value: ColumnValue, whole: Any, *, local: bool
) -> Any:
    """Projection, UDF columns and UDF conditions over source rows."""
    _, udfs = plain_and_udf_conditions(stmt)
    columns = stmt.columns
    if columns is None:
        result: Any = whole if local else rows
        for call in udfs:
            module = udf_module(run, call)
            result = await call_udf(
                module,
                call.function,
                [literal(a) for a in call.args if not isinstance(a, Path)],
                row=result,
                rows=result,
                index=0,
                vars=run.vars,
                config=run.config.data,
                request=run.request,
                log=udf_log(run),
            )
        return result
    projected = [shape(columns, [column_value(c.path, r) if c.path else MISSING for c in columns]) for r in rows]
    if any(c.udf for c in columns):
        projected = await udf_columns(run, columns, rows, projected, column_value)
    return await apply_udf_conditions(run, udfs, rows, projected, column_value)


def shape(columns: tuple, values: list) -> Any:
    """One row's column values as §8.5 shapes them: one bare column is its value,
    aliased columns an object, several bare columns an array."""
    if len(columns) == 1 and columns[0].alias is None:
        return values[0]
    if columns[0].alias is not None:
        return {c.alias: v for c, v in zip(columns, values) if v is not MISSING}
    return values


async def udf_columns(run: RunContext, columns: tuple, rows: list, projected: list, column_value: ColumnValue) -> list:
    out = []
    for index, (row, shaped) in enumerate(zip(rows, projected)):
        values = [column_value(c.path, row) if c.path else MISSING for c in columns]
        for position, col in enumerate(columns):
            if col.udf is None:
                continue
            args = [column_value(a, row) if isinstance(a, Path) else literal(a) for a in col.udf.args]
            values[position] = await call_udf(
                udf_module(run, col.udf),
                col.udf.function,
                args,
                row=shaped,
                rows=projected,
                index=index,
                vars=run.vars,
                config=run.config.data,
                request=run.request,
                log=udf_log(run),
            )
        out.append(shape(columns, values))
    return out


async def apply_udf_conditions(
    run: RunContext, udfs: list, rows: list, projected: list, column_value: ColumnValue
) -> list:
    """§12.3: each UDF condition in order; the return value replaces the row, None drops it."""
    for call in udfs:
        module = udf_module(run, call)
        snapshot = list(projected)

        async def one(index: int, row: Any, shaped: Any, call=call, module=module, snapshot=snapshot) -> Any:
            args = [column_value(a, row) if isinstance(a, Path) else literal(a) for a in call.args]
            return await call_udf(
                module,
                call.function,
                args,
                row=shaped,
                rows=snapshot,
                index=index,
                vars=run.vars,
                config=run.config.data,
                request=run.request,
                log=udf_log(run),
            )

        results = await asyncio.gather(*(one(i, r, s) for i, (r, s) in enumerate(zip(rows, projected))))
        kept = [(r, v) for r, v in zip(rows, results) if v is not None]
        rows = [r for r, _ in kept]
        projected = [v for _, v in kept]
    return projected


def literal(arg: Any) -> Any:
    """UDF literal arguments are passed as written (§12.3)."""
    return arg.value if isinstance(arg, ast.JsonLiteral) else arg


def udf_module(run: RunContext, call: ast.UdfCall) -> UdfModule:
    """The module a ``require()`` bound to the call's first word."""
    module = run.vars.get(call.module)
    if not isinstance(module, UdfModule):
        raise QlError(f"'{call.module}' is not a UDF module", status=400)
    return module


def udf_log(run: RunContext) -> Callable[[str, str], None]:
    """``ctx.log`` of a UDF: its warnings and errors join the run's warnings."""

    def log(level: str, message: str) -> None:
        if level in ("warn", "error"):
            run.warn(message)

    return log
