"""Which route answers a request: the gateway's half of routes, kept apart from
the loading so that the rule of §14.2.2 reads on its own.
"""

from __future__ import annotations

from typing import Any

from .route import Route


def select_route(
    routes: list[Route], method: str, path: str, query: dict[str, Any]
) -> tuple[Route, dict[str, str]] | None:
    """§14.2.2: among routes matching method and path, drop those missing a
    required parameter, then prefer the one naming most of the given ones."""
    best: tuple[int, int, Route, dict] | None = None
    for index, route in enumerate(routes):
        if route.method != method.lower():
            continue
        bound = route.match(path)
        if bound is None:
            continue
        if any(k not in query for k in route.required_keys()):
            continue
        score = sum(1 for k in route.query if k in query)
        if best is None or score > best[0]:
            best = (score, index, route, bound)
    return (best[2], best[3]) if best else None


def path_exists(routes: list[Route], path: str) -> bool:
    return any(r.match(path) is not None for r in routes)
