"""``select`` (§8): from a table, through a table call; from a variable, in
memory; from two sources, a join (``joins.py``).
"""

from __future__ import annotations

from typing import Any

from ..lang import ast
from ..lang.paths import evaluate as evaluate_path
from ..values import MISSING
from . import relational
from .context import RunContext
from .joins import join
from .operands import filter_rows, plain_and_udf_conditions, statement_params, table_of, timeout_of
from .projection import finish_rows
from .table_call import TableCall


async def select(run: RunContext, stmt: ast.Select) -> Any:
    if len(stmt.sources) == 2:
        return await join(run, stmt)
    source = stmt.sources[0]
    if run.is_variable(source.name):
        return await local_select(run, stmt, run.lookup(source.name))
    table = table_of(run, source)
    plain, udfs = plain_and_udf_conditions(stmt)
    has_udf_columns = any(c.udf for c in stmt.columns or ())
    params = await statement_params(run, tuple(plain), source.alias)
    per_request = None
    if stmt.columns is not None and not udfs and not has_udf_columns:
        # projected as each answer arrives: the whole answer is never held twice
        per_request = relational.answer_projector(stmt.columns, source.alias)
    value = await TableCall(
        run,
        table,
        "select",
        stmt,
        params,
        limit=stmt.limit,
        offset=stmt.offset,
        project=per_request,
        timeout_ms=timeout_of(stmt),
    ).execute()
    if per_request is None and (udfs or has_udf_columns):
        rows = relational.as_rows(value)
        return await finish_rows(
            run, stmt, rows, lambda p, r: evaluate_path(relational.strip_alias(p, source.alias), r), value, local=False
        )
    if stmt.limit is not None and isinstance(value, list):
        value = value[: stmt.limit]
    return value


async def local_select(run: RunContext, stmt: ast.Select, value: Any) -> Any:
    """§8.2: select from a variable's value."""
    if value is MISSING:
        return MISSING
    alias = stmt.sources[0].alias
    plain, udfs = plain_and_udf_conditions(stmt)
    if not plain and stmt.columns is None and stmt.limit is None and stmt.offset is None and not udfs:
        return value
    rows = await filter_rows(run, relational.as_rows(value), plain, alias)
    rows = relational.slice_rows(rows, stmt.limit, stmt.offset)
    whole = value if (not plain and stmt.limit is None and stmt.offset is None) else rows
    return await finish_rows(
        run, stmt, rows, lambda p, r: evaluate_path(relational.strip_alias(p, alias), r), whole, local=True
    )
