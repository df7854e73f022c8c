"""The HTTP gateway (spec §14), assembled: ad-hoc ``/q``, every route of
``routes/``, the describe endpoints, ``/health``, the jobs API and the
console, on one router, behind one pipeline (``pipeline.py``) that
authenticates callers and shapes every answer. Route scripts are compiled at
start-up; ``/q`` scripts on first use (cached by text).

Assembly only: the connection and the server are ``connection.py`` and
``server.py``, a process's start-up (its workspace, job backend, log sink,
heap) is ``startup.py``, and ``serve --workers N``'s supervisor ``process.py``.
"""

from __future__ import annotations

import logging
from pathlib import Path

from ..engine.engine import Engine
from ..errors import QlError
from ..jobs.backend import JobBackend

# embedders and tests open the job backend as ``serve`` does: its home is the jobs side
from ..jobs.factory import open_job_backend
from ..workspace import Workspace
from .auth import Gatekeeper
from .console import add_console
from .describe import (
    handle_health,
    handle_route_info,
    handle_route_page,
    handle_routes,
    handle_table,
    handle_tables,
)
from .exposition import handle_metrics
from .gateway import Gateway
from .jobs_api import LongPolls, add_jobs_api
from .metrics import Metrics
from .policy import GatewayPolicy
from .readiness import checks_of, handle_ready
from .router import ANY, CATCH_ALL, Router
from .scripts import Compiler, handle_q, handle_route

log = logging.getLogger("qlgate.server")

__all__ = ["build_app", "open_job_backend"]


def build_app(
    workspace: Workspace | Engine,
    *,
    enable_q: bool = True,
    enable_console: bool = True,
    jobs: JobBackend | None = None,
    insecure: bool = False,
) -> Gateway:
    """The gateway over a workspace (an engine is wrapped in one); with ``jobs`` (a
    job backend) also ``/jobs``, ``/limits`` and ``/rates``. ``insecure``: an open
    gateway (no ``gateway.auth``) answers every client, not loopback ones only.
    ``server.serve`` (or ``qlgate serve``) puts it on a socket."""
    if isinstance(workspace, Engine):
        workspace = Workspace.of(workspace)
    engine = workspace.engine
    view = engine.config.view
    policy = GatewayPolicy.from_config(view, disable_q=not enable_q)
    router = Router()
    gateway = Gateway(
        workspace=workspace,
        policy=policy,
        gatekeeper=Gatekeeper.from_config(view, insecure=insecure),
        router=router,
        compiler=Compiler(),  # callers' scripts compile here, one at a time, off the event loop
        metrics=Metrics(engine.tables, engine.api_types),
    )
    if view.text("traces.otlpEndpoint"):  # traces on: their modules imported here, and only here
        from .tracing import Tracing

        gateway.tracing = tracing = Tracing.from_config(view)
        gateway.on_close(tracing.close)
    for route in engine.routes:
        try:
            gateway.compiled_routes[id(route)] = engine.compile(
                route.source, base_dir=Path(route.file).parent, origin=route.file
            )
        except QlError as error:
            log.error("%s: %s", route.file, error)
    gateway.routes = [r for r in engine.routes if id(r) in gateway.compiled_routes]
    if policy.q_endpoint:
        router.add(ANY, "/q", handle_q)
    router.add("GET", "/tables", handle_tables)
    router.add("GET", "/table", handle_table)
    router.add("GET", "/tables/{name}", handle_table)
    router.add("GET", "/routes", handle_routes)
    router.add("GET", "/api", handle_routes)
    router.add("GET", "/route", handle_route_info)
    router.add("GET", "/routes/{method}/{path:rest}", handle_route_page)
    router.add("GET", "/health", handle_health)
    router.add("GET", "/metrics", handle_metrics)
    router.add("GET", "/ready", handle_ready)
    if jobs is not None:
        gateway.jobs = jobs
        gateway.long_polls = LongPolls()
        add_jobs_api(router)
    if enable_console and view.boolean("enableConsole"):
        add_console(router, adhoc_enabled=policy.q_endpoint, auth=not gateway.gatekeeper.open)
        gateway.console = True
    router.add(ANY, CATCH_ALL, handle_route)
    gateway.readiness = checks_of(gateway)
    return gateway
