"""The values a statement's clauses supply: operands (§4.2), where conditions and
the request parameters they become (§8.3), and in-memory filtering by them.

Shared by reads, joins and writes; it asks the run (``RunContext``) for what it
cannot work out alone — a variable's value, a nested ``in (select …)``.
"""

from __future__ import annotations

from typing import Any

from ..errors import QlError
from ..lang import ast
from ..lang.paths import Path
from ..lang.templates import resolve_reference, resolve_token
from ..tables.model import Table
from ..values import MISSING, is_nullish, to_text
from . import relational
from .context import RunContext


class Skip(Exception):
    """A ``{^x}`` prerequisite is missing: the statement makes no request (§5.3)."""


def operand_value(run: RunContext, op: ast.Operand) -> Any:
    """Where/values operand (§4.2): quoted text is interpolated, a path naming a
    variable is a reference, any other path is its own literal text."""
    if isinstance(op, ast.TextOperand):
        template = op.template
        for token in template.tokens:
            if token.required:
                value = resolve_token(token, run.lookup)
                if is_nullish(value) or (isinstance(value, list) and not value):
                    raise Skip(token.raw)
        return run.interpolate(template)
    if isinstance(op, ast.NumberOperand):
        return op.value
    path = op.path
    head = path.head
    if head is not None and run.is_variable(head):
        rest = path.without_head() if len(path.steps) > 1 else None
        return resolve_reference(head, rest, run.lookup)
    return path.text


def operand_text(run: RunContext, op: ast.Operand) -> str:
    if isinstance(op, ast.TextOperand):
        return run.text(op.template)
    return to_text(operand_value(run, op))


def param_name(path: Path, alias: str | None) -> str:
    """The parameter a condition supplies (§8.3): the path without the alias, as a
    flat dotted name (``s.paging.size`` → ``paging.size``, ``s['x-y']`` → ``x-y``)."""
    if alias and path.head == alias and len(path.steps) > 1:
        path = path.without_head()
    return ".".join(path.keys) if path.keys is not None else path.text


async def condition_values(run: RunContext, cond: Any) -> Any:
    """The value(s) a condition supplies: one value, or a list for ``in``."""
    if isinstance(cond, ast.EqCondition):
        return operand_value(run, cond.operand)
    if isinstance(cond, ast.InListCondition):
        values: list[Any] = []
        for op in cond.items:
            value = operand_value(run, op)
            if value is MISSING:
                continue
            if isinstance(value, list):
                values.extend(value)
            else:
                values.append(value)
        return values
    value = await run.select(cond.select)
    if value is MISSING:
        return MISSING
    return value if isinstance(value, list) else [value]


async def statement_params(run: RunContext, where: tuple, alias: str | None) -> dict[str, Any]:
    """§8.3 step 1: each condition becomes a request parameter (alias stripped)."""
    params: dict[str, Any] = {}
    for cond in where:
        if isinstance(cond, ast.UdfCondition):
            continue
        value = await condition_values(run, cond)
        if value is not MISSING:
            params[param_name(cond.lhs, alias)] = value
    return params


async def filter_rows(run: RunContext, rows: list, conditions: list, alias: str | None) -> list:
    """The rows that meet every condition, in memory (§8.2)."""
    for cond in conditions:
        expected = relational.expected_values(await condition_values(run, cond))
        rows = matching_rows(run, rows, relational.strip_alias(cond.lhs, alias), expected)
    return rows


def matching_rows(run: RunContext, rows: list, path: Path, expected: list) -> list:
    """The rows whose ``path`` loosely equals one of ``expected``: each pair compared is
    counted against the run's budget (ten thousand rows in ten thousand values is a
    hundred million comparisons on the event loop)."""
    run.spend(len(rows) * max(1, len(expected)), "an in-memory filter")
    return [r for r in rows if relational.row_matches(r, path, expected)]


def table_of(run: RunContext, source: ast.Source) -> Table:
    """The table a source names; an unknown name is reported where it is written."""
    try:
        return run.tables.get(source.name)
    except QlError as error:
        if source.pos is not None:
            error.line, error.column = source.pos.line, source.pos.column
        raise


def timeout_of(stmt: Any) -> int | None:
    """The statement's own ``timeout`` (ms), if it sets one."""
    tuning = getattr(stmt, "tuning", None)
    return tuning.timeout if tuning else None


def plain_and_udf_conditions(stmt: ast.Select) -> tuple[list, list]:
    """A select's where clause split: conditions on values, and UDF calls (§12.3)."""
    plain = [c for c in stmt.where if not isinstance(c, ast.UdfCondition)]
    udfs = [c.call for c in stmt.where if isinstance(c, ast.UdfCondition)]
    return plain, udfs
