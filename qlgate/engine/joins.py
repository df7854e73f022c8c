"""Joins (§8.7): ``select … from a as m, b as j where j.id = m.id``.

In named steps: sort the where clause (what relates the two sources, what
filters each), fetch the main rows, then for each main row the joiner rows that
match it — compared in memory when the joiner is a variable, one table call per
main row (at most ``maxNestedRequests`` at once) when it is a table — and last
build the output rows from the matched pairs.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ..errors import FanOutLimit
from ..lang import ast
from ..lang.paths import Path
from ..lang.paths import evaluate as evaluate_path
from ..values import MISSING
from . import relational
from .context import RunContext
from .operands import filter_rows, param_name, plain_and_udf_conditions, statement_params, table_of, timeout_of
from .planner import is_join_condition
from .projection import apply_udf_conditions, udf_columns
from .table_call import TableCall


@dataclass(frozen=True)
class JoinWhere:
    """A join's where clause, sorted."""

    main: ast.Source
    joiner: ast.Source
    pairs: list[tuple[Path, Path]]  # (main path, joiner path): equal in every joined pair
    main_conds: list  # filter the main source
    joiner_conds: list  # filter the joiner
    udfs: list[ast.UdfCall]  # UDF conditions, over the joined rows


async def join(run: RunContext, stmt: ast.Select) -> Any:
    """§8.7: the main source first, then one joiner lookup per main row."""
    where = sort_where(stmt)
    main_rows = await fetch_main_rows(run, stmt, where)
    if main_rows is MISSING:
        return MISSING
    main_alias = where.main.alias
    keys = [[evaluate_path(relational.strip_alias(m, main_alias), row) for m, _ in where.pairs] for row in main_rows]
    if run.is_variable(where.joiner.name):
        matches = await match_in_memory(run, where, keys)
    else:
        matches = await look_up_per_row(run, stmt, where, keys)
    return await joined_rows(run, stmt, where, main_rows, matches)


def sort_where(stmt: ast.Select) -> JoinWhere:
    """Conditions relating the two aliases become key pairs; the others filter
    the source their path starts with (the main one unless it is the joiner)."""
    main, joiner = stmt.sources
    aliases = [main.alias, joiner.alias]
    pairs: list[tuple[Path, Path]] = []
    main_conds: list = []
    joiner_conds: list = []
    plain, udfs = plain_and_udf_conditions(stmt)
    for cond in plain:
        if is_join_condition(cond, aliases):
            lhs, rhs = cond.lhs, cond.operand.path
            pairs.append((lhs, rhs) if lhs.head == main.alias else (rhs, lhs))
        elif cond.lhs.head == joiner.alias:
            joiner_conds.append(cond)
        else:
            main_conds.append(cond)
    return JoinWhere(main, joiner, pairs, main_conds, joiner_conds, udfs)


async def fetch_main_rows(run: RunContext, stmt: ast.Select, where: JoinWhere) -> Any:
    """The main source's rows, filtered (in memory for a variable, by the table's
    parameters for a table); MISSING when the variable has no value."""
    main = where.main
    if run.is_variable(main.name):
        value = run.lookup(main.name)
        if value is MISSING:
            return MISSING
        return await filter_rows(run, relational.as_rows(value), where.main_conds, main.alias)
    table = table_of(run, main)
    params = await statement_params(run, tuple(where.main_conds), main.alias)
    return relational.as_rows(
        await TableCall(run, table, "select", stmt, params, timeout_ms=timeout_of(stmt)).execute()
    )


async def match_in_memory(run: RunContext, where: JoinWhere, keys: list[list]) -> list[list]:
    """For each main row's keys, the joiner variable's rows that match them all."""
    joiner = where.joiner
    rows = await filter_rows(run, relational.as_rows(run.lookup(joiner.name)), where.joiner_conds, joiner.alias)
    # a comparison costs a few values' worth of building: count it as four
    run.spend(4 * len(keys) * max(1, len(rows)), "an in-memory join")
    paths = [relational.strip_alias(jpath, joiner.alias) for _, jpath in where.pairs]
    matches = []
    for row_keys in keys:
        matched = rows
        for path, key in zip(paths, row_keys):
            if key is MISSING:
                matched = []
                break
            matched = [r for r in matched if relational.row_matches(r, path, relational.expected_values(key))]
        matches.append(matched)
    return matches


async def look_up_per_row(run: RunContext, stmt: ast.Select, where: JoinWhere, keys: list[list]) -> list[list]:
    """For each main row, one call to the joiner table with the row's keys as
    parameters; a row missing a key matches nothing and makes no call."""
    joiner = where.joiner
    table = table_of(run, joiner)
    base = await statement_params(run, tuple(where.joiner_conds), joiner.alias)
    settings = run.settings
    if len(keys) > settings.max_fan_out:
        raise FanOutLimit(f"join needs {len(keys)} lookups; the limit is {settings.max_fan_out}")
    window = asyncio.Semaphore(settings.max_nested_requests)

    async def lookup(row_keys: list) -> list:
        if any(k is MISSING for k in row_keys):
            return []
        params = dict(base)
        for (_, jpath), key in zip(where.pairs, row_keys):
            params[param_name(jpath, joiner.alias)] = key
        async with window:
            return relational.as_rows(
                await TableCall(run, table, "select", stmt, params, timeout_ms=timeout_of(stmt)).execute()
            )

    return list(await asyncio.gather(*(lookup(k) for k in keys)))


async def joined_rows(run: RunContext, stmt: ast.Select, where: JoinWhere, main_rows: list, matches: list[list]) -> Any:
    """One output row per (main row, matching joiner row), limit and offset applied:
    ``*`` merges the two objects, columns read from the side their alias names."""
    main_alias, joiner_alias = where.main.alias, where.joiner.alias
    run.spend(sum(len(matched) for matched in matches), "joined rows")
    pairs = [(m, j) for m, matched in zip(main_rows, matches) for j in matched]
    pairs = relational.slice_rows(pairs, stmt.limit, stmt.offset)

    def column_value(path: Path, pair: tuple) -> Any:
        side, alias = (pair[0], main_alias) if path.head == main_alias else (pair[1], joiner_alias)
        return evaluate_path(relational.strip_alias(path, alias), side)

    columns = stmt.columns
    if columns is None:
        return [{**(m if isinstance(m, dict) else {}), **(j if isinstance(j, dict) else {})} for m, j in pairs]
    values = [[column_value(c.path, pair) if c.path else MISSING for c in columns] for pair in pairs]
    projected: list[Any]
    if columns[0].alias is not None:
        projected = [{c.alias: v for c, v in zip(columns, vals) if v is not MISSING} for vals in values]
    else:
        projected = values
    if any(c.udf for c in columns):
        projected = await udf_columns(run, columns, pairs, projected, column_value)
    return await apply_udf_conditions(run, where.udfs, pairs, projected, column_value)
