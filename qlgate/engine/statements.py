"""Evaluating one alternative of a line: JSON values, select (in memory, against
a table, joins), insert/update/delete, UDF calls, require and introspection.
"""

from __future__ import annotations

import asyncio
import copy
from typing import TYPE_CHECKING, Any, Callable

from ..errors import QlError, StatementError
from ..lang import ast
from ..lang.paths import Path, evaluate as evaluate_path
from ..lang.templates import resolve_reference, resolve_token
from ..values import MISSING, is_nullish, to_text
from . import introspect, relational
from .planner import is_join_condition
from .table_call import TableCall
from .udfs import UdfModule, call_udf, load_udf_module

if TYPE_CHECKING:
    from .run import Run


class Skip(Exception):
    """A ``{^x}`` prerequisite is missing: the statement makes no request (§5.3)."""


# ------------------------------------------------------------------ dispatch

async def evaluate(run: "Run", choice: Any, target: str | None) -> Any:
    try:
        if isinstance(choice, ast.JsonLiteral):
            return run.fill(choice.value) if choice.templated else choice.value
        if isinstance(choice, ast.Select):
            return await select(run, choice)
        if isinstance(choice, ast.Insert):
            return await insert(run, choice)
        if isinstance(choice, ast.Update):
            return await update(run, choice)
        if isinstance(choice, ast.Delete):
            return await delete(run, choice)
        if isinstance(choice, ast.VarRef):
            return run.lookup(choice.name)
        if isinstance(choice, ast.UdfCall):
            return await udf_value(run, choice)
        if isinstance(choice, ast.Require):
            return require(run, choice)
        if isinstance(choice, ast.CreateTable):
            return MISSING
        return introspect.evaluate(run, choice)
    except Skip as skipped:
        run.warn(f"line {choice.pos.line}: skipped, prerequisite {skipped} is missing")
        return MISSING


def _table(run: "Run", source: ast.Source):
    """The table a source names; an unknown name is reported where it is written."""
    try:
        return run.tables.get(source.name)
    except QlError as error:
        if source.pos is not None:
            error.line, error.column = source.pos.line, source.pos.column
        raise


# ------------------------------------------------------------------ operands

def operand_value(run: "Run", op: ast.Operand) -> Any:
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


def operand_text(run: "Run", op: ast.Operand) -> str:
    if isinstance(op, ast.TextOperand):
        return run.text(op.template)
    return to_text(operand_value(run, op))


def _param_name(path: Path, alias: str | None) -> str:
    """The parameter a condition supplies (§8.3): the path without the alias, as a
    flat dotted name (``s.paging.size`` → ``paging.size``, ``s['x-y']`` → ``x-y``)."""
    if alias and path.head == alias and len(path.steps) > 1:
        path = path.without_head()
    return ".".join(path.keys) if path.keys is not None else path.text


async def condition_values(run: "Run", cond: Any) -> Any:
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
    value = await select(run, cond.select)
    if value is MISSING:
        return MISSING
    return value if isinstance(value, list) else [value]


async def statement_params(run: "Run", where: tuple, alias: str | None) -> dict[str, Any]:
    """§8.3 step 1: each condition becomes a request parameter (alias stripped)."""
    params: dict[str, Any] = {}
    for cond in where:
        if isinstance(cond, ast.UdfCondition):
            continue
        value = await condition_values(run, cond)
        if value is not MISSING:
            params[_param_name(cond.lhs, alias)] = value
    return params


def _timeout(stmt: Any) -> int | None:
    tuning = getattr(stmt, "tuning", None)
    return tuning.timeout if tuning else None


# ------------------------------------------------------------------ select

def _udf_parts(stmt: ast.Select) -> tuple[list, list]:
    plain = [c for c in stmt.where if not isinstance(c, ast.UdfCondition)]
    udfs = [c.call for c in stmt.where if isinstance(c, ast.UdfCondition)]
    return plain, udfs


async def select(run: "Run", stmt: ast.Select) -> Any:
    if len(stmt.sources) == 2:
        return await join(run, stmt)
    source = stmt.sources[0]
    if run.is_variable(source.name):
        return await local_select(run, stmt, run.lookup(source.name))
    table = _table(run, source)
    plain, udfs = _udf_parts(stmt)
    has_udf_columns = any(c.udf for c in stmt.columns or ())
    params = await statement_params(run, tuple(plain), source.alias)
    per_request = None
    if stmt.columns is not None and not udfs and not has_udf_columns:
        shape = relational.projector(stmt.columns, source.alias)
        per_request = lambda rs: relational.project(rs, stmt.columns, shape=shape)  # noqa: E731
    value = await TableCall(run, table, "select", stmt, params, limit=stmt.limit, offset=stmt.offset,
                            project=per_request, timeout_ms=_timeout(stmt)).execute()
    if per_request is None and (udfs or has_udf_columns):
        rows = relational.as_rows(value)
        return await finish_rows(run, stmt, rows, lambda p, r: evaluate_path(relational.strip_alias(p, source.alias), r),
                                 value, local=False)
    if stmt.limit is not None and isinstance(value, list):
        value = value[:stmt.limit]
    return value


async def local_select(run: "Run", stmt: ast.Select, value: Any) -> Any:
    """§8.2: select from a variable's value."""
    if value is MISSING:
        return MISSING
    alias = stmt.sources[0].alias
    plain, udfs = _udf_parts(stmt)
    if not plain and stmt.columns is None and stmt.limit is None and stmt.offset is None and not udfs:
        return value
    rows = relational.as_rows(value)
    for cond in plain:
        expected = relational.expected_values(await condition_values(run, cond))
        path = relational.strip_alias(cond.lhs, alias)
        rows = _filter(run, rows, path, expected)
    rows = relational.slice_rows(rows, stmt.limit, stmt.offset)
    whole = value if (not plain and stmt.limit is None and stmt.offset is None) else rows
    return await finish_rows(run, stmt, rows,
                             lambda p, r: evaluate_path(relational.strip_alias(p, alias), r), whole, local=True)


def _filter(run: "Run", rows: list, path: Path, expected: list) -> list:
    """The rows whose ``path`` loosely equals one of ``expected``: each pair compared is
    counted against the run's budget (ten thousand rows in ten thousand values is a
    hundred million comparisons on the event loop)."""
    run.spend(len(rows) * max(1, len(expected)), "an in-memory filter")
    return [r for r in rows if relational.row_matches(r, path, expected)]


async def finish_rows(run: "Run", stmt: ast.Select, rows: list, column_value: Callable[[Path, Any], Any],
                      whole: Any, *, local: bool) -> Any:
    """Projection, UDF columns and UDF conditions over source rows."""
    _, udfs = _udf_parts(stmt)
    columns = stmt.columns
    if columns is None:
        result: Any = whole if local else rows
        for call in udfs:
            module = _module(run, call)
            result = await call_udf(module, call.function, [_literal(a) for a in call.args if not isinstance(a, Path)],
                                    row=result, rows=result, index=0, vars=run.vars,
                                    config=run.config.data, request=run.request, log=_log(run))
        return result
    projected = [_shape(columns, [column_value(c.path, r) if c.path else MISSING for c in columns]) for r in rows]
    if any(c.udf for c in columns):
        projected = await _udf_columns(run, columns, rows, projected, column_value)
    return await apply_udf_conditions(run, udfs, rows, projected, column_value)


def _shape(columns: tuple, values: list) -> Any:
    if len(columns) == 1 and columns[0].alias is None:
        return values[0]
    if columns[0].alias is not None:
        return {c.alias: v for c, v in zip(columns, values) if v is not MISSING}
    return values


async def _udf_columns(run: "Run", columns: tuple, rows: list, projected: list,
                       column_value: Callable[[Path, Any], Any]) -> list:
    out = []
    for index, (row, shaped) in enumerate(zip(rows, projected)):
        values = [column_value(c.path, row) if c.path else MISSING for c in columns]
        for position, col in enumerate(columns):
            if col.udf is None:
                continue
            args = [column_value(a, row) if isinstance(a, Path) else _literal(a) for a in col.udf.args]
            values[position] = await call_udf(_module(run, col.udf), col.udf.function, args, row=shaped,
                                              rows=projected, index=index, vars=run.vars, config=run.config.data,
                                              request=run.request, log=_log(run))
        out.append(_shape(columns, values))
    return out


async def apply_udf_conditions(run: "Run", udfs: list, rows: list, projected: list,
                               column_value: Callable[[Path, Any], Any]) -> list:
    """§12.3: each UDF condition in order; the return value replaces the row, None drops it."""
    for call in udfs:
        module = _module(run, call)
        snapshot = list(projected)

        async def one(index: int, row: Any, shaped: Any, call=call, module=module, snapshot=snapshot) -> Any:
            args = [column_value(a, row) if isinstance(a, Path) else _literal(a) for a in call.args]
            return await call_udf(module, call.function, args, row=shaped, rows=snapshot, index=index,
                                  vars=run.vars, config=run.config.data, request=run.request, log=_log(run))
        results = await asyncio.gather(*(one(i, r, s) for i, (r, s) in enumerate(zip(rows, projected))))
        kept = [(r, v) for r, v in zip(rows, results) if v is not None]
        rows = [r for r, _ in kept]
        projected = [v for _, v in kept]
    return projected


def _literal(arg: Any) -> Any:
    """UDF literal arguments are passed as written (§12.3)."""
    return arg.value if isinstance(arg, ast.JsonLiteral) else arg


def _module(run: "Run", call: ast.UdfCall) -> UdfModule:
    module = run.vars.get(call.module)
    if not isinstance(module, UdfModule):
        raise QlError(f"'{call.module}' is not a UDF module", status=400)
    return module


def _log(run: "Run") -> Callable[[str, str], None]:
    def log(level: str, message: str) -> None:
        if level in ("warn", "error"):
            run.warn(message)
    return log


# ------------------------------------------------------------------ joins

async def join(run: "Run", stmt: ast.Select) -> Any:
    """§8.7: the main source first, then one joiner lookup per main row."""
    main, joiner = stmt.sources
    aliases = [main.alias, joiner.alias]
    pairs: list[tuple[Path, Path]] = []
    main_conds, joiner_conds = [], []
    plain, udfs = _udf_parts(stmt)
    for cond in plain:
        if is_join_condition(cond, aliases):
            lhs, rhs = cond.lhs, cond.operand.path
            pairs.append((lhs, rhs) if lhs.head == main.alias else (rhs, lhs))
        elif cond.lhs.head == joiner.alias:
            joiner_conds.append(cond)
        else:
            main_conds.append(cond)
    # main rows
    if run.is_variable(main.name):
        value = run.lookup(main.name)
        if value is MISSING:
            return MISSING
        main_rows = relational.as_rows(value)
        for cond in main_conds:
            expected = relational.expected_values(await condition_values(run, cond))
            path = relational.strip_alias(cond.lhs, main.alias)
            main_rows = _filter(run, main_rows, path, expected)
    else:
        table = _table(run, main)
        params = await statement_params(run, tuple(main_conds), main.alias)
        main_rows = relational.as_rows(await TableCall(run, table, "select", stmt, params,
                                                       timeout_ms=_timeout(stmt)).execute())
    join_keys = [[evaluate_path(relational.strip_alias(m, main.alias), row) for m, _ in pairs] for row in main_rows]
    # joiner lookups
    if run.is_variable(joiner.name):
        jvalue = run.lookup(joiner.name)
        jrows = relational.as_rows(jvalue)
        for cond in joiner_conds:
            expected = relational.expected_values(await condition_values(run, cond))
            path = relational.strip_alias(cond.lhs, joiner.alias)
            jrows = _filter(run, jrows, path, expected)
        # a comparison costs a few values' worth of building: count it as four
        run.spend(4 * len(join_keys) * max(1, len(jrows)), "an in-memory join")
        lookups = []
        for keys in join_keys:
            matched = jrows
            for (_, jpath), key in zip(pairs, keys):
                if key is MISSING:
                    matched = []
                    break
                jp = relational.strip_alias(jpath, joiner.alias)
                matched = [r for r in matched if relational.row_matches(r, jp, relational.expected_values(key))]
            lookups.append(matched)
    else:
        table = _table(run, joiner)
        base = await statement_params(run, tuple(joiner_conds), joiner.alias)
        if len(main_rows) > run.settings.max_fan_out:
            from ..errors import FanOutLimit
            raise FanOutLimit(f"join needs {len(main_rows)} lookups; the limit is {run.settings.max_fan_out}")
        window = asyncio.Semaphore(run.settings.max_nested_requests)

        async def lookup(keys: list) -> list:
            if any(k is MISSING for k in keys):
                return []
            params = dict(base)
            for (_, jpath), key in zip(pairs, keys):
                params[_param_name(jpath, joiner.alias)] = key
            async with window:
                return relational.as_rows(await TableCall(run, table, "select", stmt, params,
                                                          timeout_ms=_timeout(stmt)).execute())
        lookups = list(await asyncio.gather(*(lookup(k) for k in join_keys)))
    # output rows
    columns = stmt.columns
    run.spend(sum(len(matched) for matched in lookups), "joined rows")
    pairs_rows = [(m, j) for m, matched in zip(main_rows, lookups) for j in matched]

    def column_value(path: Path, pair: tuple) -> Any:
        side = pair[0] if path.head == main.alias else pair[1]
        alias = main.alias if path.head == main.alias else joiner.alias
        return evaluate_path(relational.strip_alias(path, alias), side)

    pairs_rows = relational.slice_rows(pairs_rows, stmt.limit, stmt.offset)
    if columns is None:
        return [{**(m if isinstance(m, dict) else {}), **(j if isinstance(j, dict) else {})} for m, j in pairs_rows]
    values = [[column_value(c.path, pr) if c.path else MISSING for c in columns] for pr in pairs_rows]
    if columns[0].alias is not None:
        projected = [{c.alias: v for c, v in zip(columns, vals) if v is not MISSING} for vals in values]
    else:
        projected = values
    if any(c.udf for c in columns):
        projected = await _udf_columns(run, columns, pairs_rows, projected, column_value)
    return await apply_udf_conditions(run, udfs, pairs_rows, projected, column_value)


# ------------------------------------------------------------------ writes

def _object(run: "Run", value: Any, what: str) -> dict:
    if not isinstance(value, dict):
        raise StatementError(f"{what} must name an object, got {type(value).__name__ if value is not MISSING else 'nothing'}",
                             status=400)
    return value


async def insert(run: "Run", stmt: ast.Insert) -> Any:
    params: dict[str, Any] = {}
    opaque: Any = MISSING
    if stmt.object_text is not None:
        params = dict(_object(run, run.interpolate(stmt.object_text), "insert \"{…}\" into"))
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
    table = _table(run, stmt.source)
    return await TableCall(run, table, "insert", stmt, params, opaque=opaque, timeout_ms=_timeout(stmt)).execute()


async def update(run: "Run", stmt: ast.Update) -> Any:
    if run.is_variable(stmt.source.name):
        raise StatementError(f"cannot update variable '{stmt.source.name}'", status=400)
    params = dict(_object(run, run.interpolate(stmt.with_text), "update … with"))
    table = _table(run, stmt.source)
    return await TableCall(run, table, "update", stmt, params, timeout_ms=_timeout(stmt)).execute()


async def delete(run: "Run", stmt: ast.Delete) -> Any:
    source = stmt.source
    if run.is_variable(source.name):
        value = run.lookup(source.name)
        if value is MISSING:
            return MISSING
        if isinstance(value, list):
            rows = value
            checks = [(relational.strip_alias(c.lhs, source.alias),
                       relational.expected_values(await condition_values(run, c)))
                      for c in stmt.where if not isinstance(c, ast.UdfCondition)]
            run.spend(len(rows) * max(1, sum(len(e) for _, e in checks)), "an in-memory delete")
            return [copy.deepcopy(r) for r in rows
                    if not (checks and all(relational.row_matches(r, p, e) for p, e in checks))]
        if isinstance(value, dict):
            out = copy.deepcopy(value)
            for cond in stmt.where:
                if isinstance(cond, ast.EqCondition):
                    key = _param_name(cond.lhs, source.alias)
                    expected = operand_value(run, cond.operand)
                    if key in out and out[key] == expected and type(out[key]) is type(expected):
                        del out[key]
            return out
        return value
    table = _table(run, source)
    params = await statement_params(run, stmt.where, source.alias)
    return await TableCall(run, table, "delete", stmt, params, timeout_ms=_timeout(stmt)).execute()


# ------------------------------------------------------------------ UDFs and require

async def udf_value(run: "Run", call: ast.UdfCall) -> Any:
    module = _module(run, call)
    args = []
    for arg in call.args:
        if isinstance(arg, Path):
            head = arg.head
            rest = arg.without_head() if len(arg.steps) > 1 else None
            args.append(resolve_reference(head, rest, run.lookup) if head else MISSING)
        else:
            args.append(run.fill(arg.value) if arg.templated else arg.value)
    args = [None if a is MISSING else a for a in args]
    return await call_udf(module, call.function, args, vars=run.vars, config=run.config.data,
                          request=run.request, log=_log(run))


def require(run: "Run", req: ast.Require) -> UdfModule:
    """``require("x.py")``: a module beside the script or in the deployment's trees
    (caller scripts never get here: the trust check refuses ``require``)."""
    return load_udf_module(req.module, run.module_dirs(run.settings.udf_paths))
