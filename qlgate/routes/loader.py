"""The routes tree read from disk: every ``*.ql`` under it compiled to a route,
and every file that does not compile (or repeats another's method, path and
query keys) reported as a problem at file:line:col instead of stopping the load.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import QlError, QlSyntaxError
from ..lang.parser import parse
from ..tables.registry import LoadProblem
from .route import Route, compile_route


def load_routes_dir(directory: str | Path | None) -> tuple[list[Route], list[LoadProblem]]:
    routes: list[Route] = []
    problems: list[LoadProblem] = []
    if directory is None or not Path(directory).is_dir():
        return routes, problems
    seen: dict[tuple, str] = {}
    for file in sorted(Path(directory).rglob("*.ql")):
        rel = str(file)
        try:
            source = file.read_text(encoding="utf-8")
            script = parse(source, origin=rel)
            route = compile_route(script, source, rel)
        except QlSyntaxError as e:
            problems.append(LoadProblem(rel, e.line or 1, e.column or 1, e.message))
            continue
        except QlError as e:
            problems.append(LoadProblem(rel, e.line or 1, e.column or 1, e.message))
            continue
        except (OSError, UnicodeDecodeError) as e:
            problems.append(LoadProblem(rel, 1, 1, f"cannot read: {e}"))
            continue
        identity = (route.method, route.path, frozenset(route.query))
        if identity in seen:
            problems.append(
                LoadProblem(rel, 1, 1, f"route {route.method} {route.pattern} already defined in {seen[identity]}")
            )
            continue
        seen[identity] = rel
        routes.append(route)
    return routes, problems
