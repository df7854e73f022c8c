"""The HTTP gateway (spec §14) on aiohttp, assembled: ad-hoc ``/q``, every route
of ``routes/``, the describe endpoints, ``/health``, the jobs API and the
console, behind one middleware (``middleware.py``) that authenticates callers
and shapes every answer. Route scripts are compiled at start-up; ``/q``
scripts on first use (cached by text). ``/q`` and the routes are served by the
gateway's own HTTP front (``front.py``), the rest by aiohttp (``protocol.py``):
the same middleware and handlers either way.

Assembly only: a process's start-up (its workspace, job backend, access log and
heap) is ``startup.py``, and ``serve --workers N``'s supervisor ``process.py``.
"""

from __future__ import annotations

import logging
from pathlib import Path

from aiohttp import web

from ..engine.engine import Engine
from ..errors import QlError
from ..jobs.backend import JobBackend

# embedders and tests open the job backend as ``serve`` does: its home is the jobs side
from ..jobs.factory import open_job_backend
from ..workspace import Workspace
from . import protocol
from .auth import Gatekeeper
from .console import add_console
from .front import IDLE_TIMEOUT_S
from .handlers import (
    BUILTIN,
    COMPILED_ROUTES,
    COMPILER,
    ROUTES,
    WORKSPACE,
    Compiler,
    handle_health,
    handle_q,
    handle_route,
    handle_route_info,
    handle_route_page,
    handle_routes,
    handle_table,
    handle_tables,
)
from .jobs_api import add_jobs_api
from .middleware import GATEKEEPER, POLICY, gateway_middleware
from .policy import GatewayPolicy

log = logging.getLogger("qlgate.server")

__all__ = ["build_app", "open_job_backend"]


def build_app(
    workspace: Workspace | Engine,
    *,
    enable_q: bool = True,
    enable_console: bool = True,
    jobs: JobBackend | None = None,
    insecure: bool = False,
) -> web.Application:
    """The gateway over a workspace (an engine is wrapped in one); with ``jobs`` (a
    job backend) also ``/jobs``, ``/limits`` and ``/rates``. ``insecure``: an open
    gateway (no ``gateway.auth``) answers every client, not loopback ones only."""
    if isinstance(workspace, Engine):
        workspace = Workspace.of(workspace)
    engine = workspace.engine
    policy = GatewayPolicy.from_config(engine.config.data, disable_q=not enable_q)
    app = web.Application(
        client_max_size=policy.max_body_bytes,
        middlewares=[gateway_middleware],
        # a GET /q carries its script in the URL: room for gateway.maxScriptLength characters
        # keep-alive: as long as the front's (front.IDLE_TIMEOUT_S) on the connections handed to aiohttp
        handler_args={"max_line_size": policy.max_request_line, "keepalive_timeout": IDLE_TIMEOUT_S},
    )
    protocol.install(app)  # served through the front; aiohttp's own errors in the error shape too
    app[POLICY] = policy
    app[GATEKEEPER] = Gatekeeper.from_config(engine.config.data, insecure=insecure)
    app[WORKSPACE] = workspace
    compiled = {}
    for route in engine.routes:
        try:
            compiled[id(route)] = engine.compile(route.source, base_dir=Path(route.file).parent, origin=route.file)
        except QlError as error:
            log.error("%s: %s", route.file, error)
    app[ROUTES] = [r for r in engine.routes if id(r) in compiled]
    app[COMPILED_ROUTES] = compiled
    app[BUILTIN] = {p: "GET" for p in ("/tables", "/table", "/routes", "/api", "/route", "/health")}
    # callers' scripts compile here, one at a time, off the event loop
    app[COMPILER] = Compiler()
    if policy.q_endpoint:
        app.router.add_route("*", "/q", handle_q)
    app.router.add_get("/tables", handle_tables)
    app.router.add_get("/table", handle_table)
    app.router.add_get("/tables/{name}", handle_table)
    app.router.add_get("/routes", handle_routes)
    app.router.add_get("/api", handle_routes)
    app.router.add_get("/route", handle_route_info)
    app.router.add_get("/routes/{method}/{path:.*}", handle_route_page)
    app.router.add_get("/health", handle_health)
    if jobs is not None:
        add_jobs_api(app, jobs)
        for path in ("/jobs", "/limits", "/rates"):
            app[BUILTIN][path] = "GET, POST" if path == "/jobs" else "GET"
    if enable_console and engine.config.data.get("enableConsole", True) is not False:
        add_console(app, adhoc_enabled=policy.q_endpoint, auth=not app[GATEKEEPER].open)
    app.router.add_route("*", "/{tail:.*}", handle_route)

    async def close(_: web.Application) -> None:
        app[COMPILER].shutdown(wait=False, cancel_futures=True)
        await workspace.close()

    app.on_cleanup.append(close)
    return app
