"""What the gateway answers when no route and no endpoint takes a request: 405
with ``Allow`` when the path is served by other methods, 400 when a route of
this method lacks a required query parameter (§14.2.2), and 404 otherwise —
each in the one error shape, ``{"err": …}``.

A 405 rather than a 404 or a 400 tells a caller that the path is right and the
method is not, and ``Allow`` says which to use. Routes live behind the gateway's
catch-all resource, so aiohttp's router never sees their methods: they are
counted here, with the methods of the endpoints whose path matches (``/jobs/{id}``,
``/limits/{type}``, the console's files), asked of the router's resources.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ..routes import Route
from .responses import json_response


async def no_route(request: web.Request, routes: list[Route], query: dict[str, Any]) -> web.Response:
    """The answer to ``request``, which no route selected (``select_route`` gave None)."""
    method, path = request.method, request.path
    matching = [route for route in routes if route.match(path) is not None]
    asked = "GET" if method == "HEAD" else method  # a HEAD is answered as its GET would be
    same_method = [route for route in matching if route.method.upper() == asked]
    if same_method:  # the path and the method are right; a required query parameter is not there
        missing = sorted({key for route in same_method for key in route.required_keys() if key not in query})
        return json_response({"err": "No matching route", "missing": missing}, status=400)
    allowed = {route.method.upper() for route in matching} | await endpoint_methods(request)
    if "GET" in allowed:
        allowed.add("HEAD")  # served as GET without its body (handle_route)
    if allowed:
        return not_allowed(method, path, allowed)
    return not_found(method, path)


def not_allowed(method: str, path: str, allowed: set[str] | str) -> web.Response:
    allow = allowed if isinstance(allowed, str) else ", ".join(sorted(allowed))
    return json_response(
        {"err": f"{method} is not allowed on {path}; use {allow}"}, status=405, headers={"Allow": allow}
    )


def not_found(method: str, path: str) -> web.Response:
    """ql.io's words (§14.4), in the gateway's error shape."""
    return json_response({"err": f"Cannot {method} {path}"}, status=404)


async def endpoint_methods(request: web.Request) -> set[str]:
    """The methods the app's own endpoints answer at ``request.path``: every resource
    whose path matches but whose methods do not. The catch-all that routes requests
    to the routes matches any method, and so adds none."""
    allowed: set[str] = set()
    for resource in request.app.router.resources():
        match, methods = await resource.resolve(request)
        if match is None:
            allowed |= methods
    return allowed
