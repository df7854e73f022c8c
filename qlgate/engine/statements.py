"""Evaluating one alternative of a line: the dispatch to reads, joins, writes and
introspection, and the small statements evaluated here — JSON values, variable
references, UDF calls and ``require``.

Every function takes the run as a ``RunContext`` (``context.py``): what a
statement may use of a run, nothing of how the run works.
"""

from __future__ import annotations

from typing import Any

from ..lang import ast
from ..lang.paths import Path
from ..lang.templates import resolve_reference
from ..values import MISSING
from . import introspect
from .context import RunContext
from .operands import Skip, operand_text
from .projection import udf_log, udf_module
from .reads import select
from .udfs import UdfModule, call_udf, load_udf_module
from .writes import delete, insert, update

__all__ = ["evaluate", "operand_text", "select"]


async def evaluate(run: RunContext, choice: Any, target: str | None) -> Any:
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


async def udf_value(run: RunContext, call: ast.UdfCall) -> Any:
    """A UDF called as a statement: path arguments are variables, literals are filled."""
    module = udf_module(run, call)
    args = []
    for arg in call.args:
        if isinstance(arg, Path):
            head = arg.head
            rest = arg.without_head() if len(arg.steps) > 1 else None
            args.append(resolve_reference(head, rest, run.lookup) if head else MISSING)
        else:
            args.append(run.fill(arg.value) if arg.templated else arg.value)
    args = [None if a is MISSING else a for a in args]
    return await call_udf(
        module, call.function, args, vars=run.vars, config=run.config.data, request=run.request, log=udf_log(run)
    )


def require(run: RunContext, req: ast.Require) -> UdfModule:
    """``require("x.py")``: a module beside the script or in the deployment's trees
    (caller scripts never get here: the trust check refuses ``require``)."""
    return load_udf_module(req.module, run.module_dirs(run.settings.udf_paths))
