"""The describe endpoints the console and callers read (``/tables``, ``/table``,
``/routes``, ``/route``, their pages) and ``/health``: what this gateway serves,
in data."""

from __future__ import annotations

import os
from typing import Any

from ..errors import QlError, TableNotFound
from ..routes import Route
from ..tables.describe import describe_route, describe_table, route_summary, table_example, table_summary
from .request import Request
from .response import Response
from .response import json_response as _json
from .scripts import error_response


def _listed(table: Any) -> dict[str, Any]:
    """A row of ``GET /tables``, with the table's ``example`` where it runs as it is
    (none of the describe page's ``…`` blanks to fill in): the console writes its
    first script from these, so it only ever offers tables this gateway has."""
    row = table_summary(table)
    example = table_example(table)
    if "\u2026" not in example:
        row["example"] = example
    return row


async def handle_tables(request: Request) -> Response:
    request.describes = True
    return _json([_listed(t) for t in request.gateway.workspace.engine.tables.tables()])


async def handle_table(request: Request) -> Response:
    request.describes = True
    workspace = request.gateway.workspace
    name = request.query.get("name") or request.params.get("name")
    if not name:
        return _json({"err": "Missing table name"}, status=400)
    try:
        table = workspace.engine.tables.get(name)
    except QlError as error:
        if isinstance(error, TableNotFound):
            error.status = 404  # here the table is the resource asked for (in a script, a 400)
        return error_response(error, workspace)
    return _json(describe_table(table, workspace.engine.routes, workspace.config.secrets))


async def handle_routes(request: Request) -> Response:
    request.describes = True
    routes: list[Route] = request.gateway.routes
    routes = sorted(routes, key=lambda r: r.pattern.lower())
    return _json([route_summary(r) for r in routes])


async def handle_route_info(request: Request) -> Response:
    request.describes = True
    path, method = request.query.get("path"), request.query.get("method")
    if not path or not method:
        return _json({"err": "Missing path or method"}, status=400)
    routes = request.gateway.routes
    for route in routes:
        if route.pattern == path and route.method == method.lower():
            return _json(describe_route(route, routes))
    return _json({"err": f"No such route {method} {path}"}, status=404)


async def handle_route_page(request: Request) -> Response:
    """``/routes/<method>/<path>``: the describe page of one route."""
    request.describes = True
    method, path = request.params["method"].lower(), "/" + request.params["path"]
    routes = request.gateway.routes
    for route in routes:
        if route.path == path and route.method == method:
            return _json(describe_route(route, routes))
    return _json({"err": f"No such route {method} {path}"}, status=404)


async def handle_health(request: Request) -> Response:
    return _json(
        {
            "status": "ok",
            "tables": len(request.gateway.workspace.engine.tables),
            "routes": len(request.gateway.routes),
            "pid": os.getpid(),
        }
    )
