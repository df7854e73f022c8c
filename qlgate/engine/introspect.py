"""Running ``show tables``, ``describe``, ``show routes`` and ``describe route``
(spec §4.10) as statements: against the run's tables (inline ones included) and
the engine's routes. What they answer is written in ``tables/describe.py``.
"""

from __future__ import annotations

from typing import Any

from ..errors import QlError
from ..lang import ast
from ..tables.describe import describe_route, describe_table, route_summary, table_summary
from ..tables.registry import not_found
from .context import RunContext


def evaluate(run: RunContext, stmt: Any) -> Any:
    routes = run.routes
    if isinstance(stmt, ast.ShowTables):
        return [table_summary(t) for t in run.tables.tables()]
    if isinstance(stmt, ast.Describe):
        table = run.tables.find(stmt.name)
        if table is None:
            raise not_found(stmt.name, run.tables)
        return describe_table(table, routes, run.secrets)
    if isinstance(stmt, ast.ShowRoutes):
        return [route_summary(r) for r in sorted(routes, key=lambda r: r.pattern.lower())]
    if isinstance(stmt, ast.DescribeRoute):
        for route in routes:
            if route.pattern == stmt.path and route.method == stmt.method:
                return describe_route(route, routes)
        raise QlError(f"No such route {stmt.method} {stmt.path}", status=400)
    raise QlError(f"cannot evaluate {type(stmt).__name__}", status=500)
