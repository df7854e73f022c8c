"""Routes (spec §13.2, §14.2): the deployer's scripts under ``routes/`` whose
``return`` has a ``via route`` clause, with their path patterns, query maps and
defaults.

A package beside ``tables/`` rather than a module of ``server/``: like a table
definition, a route is something the deployer writes and the engine loads and
compiles (``Engine(routes=…)``); the jobs side reads which tables a route uses,
and the gateway only picks the route a request names. Kept under ``server/`` it
would make the engine import the gateway. ``from qlgate.routes import …`` is the
way in; the modules split it by job:

- ``route.py``: one route — its compiled pattern, its matching, the tables it uses;
- ``loader.py``: the routes tree read from disk, every problem as file:line:col;
- ``dispatch.py``: which route answers a request (§14.2.2).
"""

from .dispatch import path_exists, select_route
from .loader import load_routes_dir
from .route import Route, compile_route, tables_used

__all__ = ["Route", "compile_route", "load_routes_dir", "path_exists", "select_route", "tables_used"]
