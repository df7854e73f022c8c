"""``insert``, ``update`` and ``delete`` (§9): through a table call when they name a
table; on a copy of the value when they name a variable (the variable itself
never changes: a script's values are immutable once assigned).
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import StatementError
from ..lang import ast
from ..values import MISSING
from . import relational
from .context import RunContext
from .operands import condition_values, operand_value, param_name, statement_params, table_of, timeout_of
from .table_call import TableCall


def _object(value: Any, what: str) -> dict:
    if not isinstance(value, dict):
        raise StatementError(
            f"{what} must name an object, got {type(value).__name__ if value is not MISSING else 'nothing'}", status=400
        )
    return value


async def insert(run: RunContext, stmt: ast.Insert) -> Any:
    params: dict[str, Any] = {}
    opaque: Any = MISSING
    if stmt.object_text is not None:
        params = dict(_object(run.interpolate(stmt.object_text), 'insert "{…}" into'))
    elif stmt.columns is not None:
        for column, op in zip(stmt.columns, stmt.values or ()):
            value = operand_value(run, op)
            if value is not MISSING:
                params[column] = value
    elif stmt.values:
        opaque = operand_value(run, stmt.values[0])
        if opaque is MISSING:
            raise StatementError("the value of an opaque insert is missing", status=400)
    if run.is_variable(stmt.source.name):
        target = run.lookup(stmt.source.name)
        if not isinstance(target, dict):
            raise StatementError(f"cannot insert into '{stmt.source.name}': it does not hold an object", status=400)
        updated = copy.deepcopy(target)
        updated.update(params)
        return updated
    table = table_of(run, stmt.source)
    return await TableCall(run, table, "insert", stmt, params, opaque=opaque, timeout_ms=timeout_of(stmt)).execute()


async def update(run: RunContext, stmt: ast.Update) -> Any:
    if run.is_variable(stmt.source.name):
        raise StatementError(f"cannot update variable '{stmt.source.name}'", status=400)
    params = dict(_object(run.interpolate(stmt.with_text), "update … with"))
    table = table_of(run, stmt.source)
    return await TableCall(run, table, "update", stmt, params, timeout_ms=timeout_of(stmt)).execute()


async def delete(run: RunContext, stmt: ast.Delete) -> Any:
    source = stmt.source
    if run.is_variable(source.name):
        return await delete_in_memory(run, stmt, run.lookup(source.name))
    table = table_of(run, source)
    params = await statement_params(run, stmt.where, source.alias)
    return await TableCall(run, table, "delete", stmt, params, timeout_ms=timeout_of(stmt)).execute()


async def delete_in_memory(run: RunContext, stmt: ast.Delete, value: Any) -> Any:
    """From an array: the rows left once those meeting every condition are removed
    (without conditions, none are). From an object: the keys an equality names,
    removed where they hold exactly the value it gives."""
    source = stmt.source
    if value is MISSING:
        return MISSING
    if isinstance(value, list):
        rows = value
        checks = [
            (relational.strip_alias(c.lhs, source.alias), relational.expected_values(await condition_values(run, c)))
            for c in stmt.where
            if not isinstance(c, ast.UdfCondition)
        ]
        run.spend(len(rows) * max(1, sum(len(e) for _, e in checks)), "an in-memory delete")
        return [
            copy.deepcopy(r) for r in rows if not (checks and all(relational.row_matches(r, p, e) for p, e in checks))
        ]
    if isinstance(value, dict):
        out = copy.deepcopy(value)
        for cond in stmt.where:
            if isinstance(cond, ast.EqCondition):
                key = param_name(cond.lhs, source.alias)
                expected = operand_value(run, cond.operand)
                if key in out and out[key] == expected and type(out[key]) is type(expected):
                    del out[key]
        return out
    return value
