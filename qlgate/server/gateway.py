"""The gateway's services, passed whole to every handler as ``request.gateway``:
the workspace (engine, tables, config), what the gateway admits (policy,
gatekeeper), the routes compiled at start-up, the router, the job backend
when there is one, and the log sink. One object with names, where a
framework would have had an app dictionary of keys.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.engine import Compiled
    from ..jobs.backend import JobBackend
    from ..routes import Route
    from ..workspace import Workspace
    from .auth import Gatekeeper
    from .jobs_api import LongPolls
    from .logsink import LogSink
    from .metrics import Metrics
    from .metrics_share import MetricsShare
    from .policy import GatewayPolicy
    from .readiness import Check
    from .router import Router
    from .scripts import Compiler
    from .tracing import Tracing

log = logging.getLogger("qlgate.server")

Closer = Callable[[], Awaitable[Any] | None]


@dataclass(eq=False)
class Gateway:
    workspace: Workspace
    policy: GatewayPolicy
    gatekeeper: Gatekeeper
    router: Router
    compiler: Compiler
    routes: list[Route] = field(default_factory=list)  # those that compiled
    compiled_routes: dict[int, Compiled] = field(default_factory=dict)  # id(route) → its script
    jobs: JobBackend | None = None
    long_polls: LongPolls | None = None
    console: bool = False
    access_log: LogSink | None = None  # ``qlgate serve``'s; else lines go to the logger qlgate.access
    metrics: Metrics | None = None  # what GET /metrics counts (None: not counted)
    metrics_share: MetricsShare | None = None  # ``--workers``: the other workers' counts
    tracing: Tracing | None = None  # OTLP traces (config ``traces``); None: off, nothing imported
    readiness: dict[str, Check] = field(default_factory=dict)  # GET /ready's checks, by service
    closers: list[Closer] = field(default_factory=list)  # run by ``close``, last added first
    closed: bool = False

    def on_close(self, closer: Closer) -> None:
        """Run ``closer`` when the gateway closes (before what was registered earlier)."""
        self.closers.append(closer)

    async def close(self) -> None:
        """Close what the gateway opened, once: the job backend, the compile thread, the workspace."""
        if self.closed:
            return
        self.closed = True
        for closer in reversed(self.closers):
            try:
                result = closer()
                if result is not None:
                    await result
            except Exception:
                log.exception("closing the gateway")
        if self.long_polls is not None:
            self.long_polls.close()
        self.compiler.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(Exception):
            await self.workspace.close()
