"""One gateway process, from its configuration to a listening socket: the
workspace opened, the job backend, the app assembled, the access log, the heap
settled, then aiohttp's server until SIGTERM or SIGINT, which drains in-flight
requests for up to ``DRAIN_SECONDS``. ``qlgate serve`` runs one such process,
or ``process.py``'s supervisor runs several.
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .._version import __version__
from ..errors import QlError
from ..jobs.factory import open_job_backend
from ..workspace import Workspace
from .accesslog import AccessLog
from .app import build_app
from .handlers import ROUTES
from .middleware import ACCESS_LOG, GATEKEEPER

log = logging.getLogger("qlgate.server")

DRAIN_SECONDS = 30.0  # how long SIGTERM lets in-flight requests finish before the app closes


def run_gateway(
    args: Any,
    config: Any,
    index: int = 0,
    ready: Callable[[], None] | None = None,
    *,
    reuse_port: bool = False,
    emulator: bool = True,
) -> None:
    """Serve until a signal stops this process. ``index``: its place among the
    gateway processes (the first runs embedded jobs and prints the banner);
    ``ready``: called once every socket listens; ``emulator``: this process may
    start the eBay emulator (with several processes the parent starts one for all)."""
    from ..loop import install

    install()
    web.run_app(
        open_gateway(args, config, index, emulator=emulator),
        host=args.host,
        port=args.port,
        # run_app calls its print hook once, right after every site listens: the moment this process is ready
        print=(lambda *_: ready()) if ready is not None else (lambda *_: None),
        access_log=None,
        reuse_port=reuse_port,
        shutdown_timeout=DRAIN_SECONDS,
    )


async def open_gateway(args: Any, config: Any, index: int = 0, *, emulator: bool = True) -> web.Application:
    """The app one gateway process serves, with what it needs open and its clean-up hooked."""
    workspace = await Workspace.open(tables=args.tables, routes=args.routes, config=config, emulator=emulator)
    for problem in workspace.problems:
        log.warning("%s", problem)
    jobs, stop_jobs = open_job_backend(args, workspace, runs_jobs=index == 0)
    app = build_app(
        workspace,
        enable_q=not args.disable_q,
        enable_console=not args.disable_console,
        jobs=jobs,
        insecure=getattr(args, "insecure", False),
    )
    app.on_cleanup.insert(0, stop_jobs)
    app[ACCESS_LOG] = access = AccessLog(sys.stderr)

    async def flush_access_log(_: web.Application) -> None:
        access.flush()

    app.on_shutdown.append(flush_access_log)
    app.on_cleanup.append(flush_access_log)
    if index == 0:
        _banner(args, app, workspace)
    settle_heap()
    return app


def settle_heap() -> None:
    """Move what start-up built (tables, compiled routes, the grammar) out of the
    collector's sight and collect young objects less often: a full collection that
    walks every table definition would otherwise land in some request's latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(7000, 20, 20)


def _banner(args: Any, app: web.Application, workspace: Workspace) -> None:
    """What an operator needs to know at start-up: where, what is loaded, which
    upstreams, and who may call."""
    engine = workspace.engine
    log.info(
        "qlgate %s on http://%s:%s: %d tables, %d routes",
        __version__,
        args.host,
        args.port,
        len(engine.tables),
        len(app[ROUTES]),
    )
    if workspace.emulator is not None:
        log.info("no eBay credentials configured: eBay tables use the built-in emulator at %s", workspace.emulator.base)
    else:
        _log_ebay_environment(engine.config.data)
    gatekeeper = app[GATEKEEPER]
    if not gatekeeper.open:
        log.info("API keys required (gateway.auth): %s", ", ".join(k.name for k in gatekeeper.keys))
    elif gatekeeper.insecure:
        log.warning(
            "OPEN and --insecure: no gateway.auth, and every client that reaches %s:%s may run "
            "scripts, submit jobs and change limits",
            args.host,
            args.port,
        )
    else:
        log.warning("open gateway (no gateway.auth): it answers loopback clients only")


def _log_ebay_environment(data: dict[str, Any]) -> None:
    """Say which eBay the eBay tables talk to (``ebay.environment``), so a gateway set
    up for the sandbox is not taken for production, nor the other way round."""
    from ..ebay.environments import resolved_environment

    if "ebay" not in data:
        return
    try:
        environment = resolved_environment(data)
    except QlError:
        return
    hosts = ((data.get("tables") or {}).get("ebay") or {}).get("rest", {}).get("hosts") or {}
    where = hosts.get("api", "REST hosts not set")
    if environment == "emulator":
        log.info("eBay tables use the built-in emulator at %s (shared by the gateway processes)", where)
    else:
        log.info("eBay tables talk to eBay's %s (%s)", environment, where)
