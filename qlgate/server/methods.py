"""What the gateway answers when no route and no endpoint takes a request: 405
with ``Allow`` when the path is served by other methods, 400 when a route of
this method lacks a required query parameter (§14.2.2), and 404 otherwise —
each in the one error shape, ``{"err": …}``.

A 405 rather than a 404 or a 400 tells a caller that the path is right and the
method is not, and ``Allow`` says which to use. Routes live behind the router's
catch-all, so the router does not know their methods: they are counted here,
with the methods of the gateway's endpoints whose pattern matches the path.
"""

from __future__ import annotations

from typing import Any

from ..routes import Route
from .request import Request
from .response import Response, json_response


def no_route(request: Request, routes: list[Route], query: dict[str, Any]) -> Response:
    """The answer to ``request``, which no route selected (``select_route`` gave None)."""
    method, path = request.method, request.path
    matching = [route for route in routes if route.match(path) is not None]
    asked = "GET" if method == "HEAD" else method  # a HEAD is answered as its GET would be
    same_method = [route for route in matching if route.method.upper() == asked]
    if same_method:  # the path and the method are right; a required query parameter is not there
        missing = sorted({key for route in same_method for key in route.required_keys() if key not in query})
        return json_response({"err": "No matching route", "missing": missing}, status=400)
    allowed = {route.method.upper() for route in matching} | request.gateway.router.methods_at(path)
    if "GET" in allowed:
        allowed.add("HEAD")  # served as GET without its body (handle_route)
    if allowed:
        return not_allowed(method, path, allowed)
    return not_found(method, path)


def not_allowed(method: str, path: str, allowed: set[str] | str) -> Response:
    allow = allowed if isinstance(allowed, str) else ", ".join(sorted(allowed))
    return json_response(
        {"err": f"{method} is not allowed on {path}; use {allow}"}, status=405, headers={"Allow": allow}
    )


def not_found(method: str, path: str) -> Response:
    """ql.io's words (§14.4), in the gateway's error shape."""
    return json_response({"err": f"Cannot {method} {path}"}, status=404)
