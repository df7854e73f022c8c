"""One gateway process, from its configuration to a listening socket: the
workspace opened, the job backend, the app assembled, the access log (on unless
``--no-access-log``), the heap settled, then aiohttp's server until SIGTERM or
SIGINT, which drains in-flight requests for up to ``DRAIN_SECONDS``. Once the
socket listens, the first process prints the banner (``banner.py``). ``qlgate
serve`` runs one such process, or ``process.py``'s supervisor runs several.
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Callable
from typing import Any

from aiohttp import web

from ..jobs.factory import open_job_backend
from ..workspace import Workspace
from .accesslog import AccessLog
from .app import build_app
from .banner import gather
from .banner import lines as banner_lines
from .listen import bind_failure, is_bind_failure
from .middleware import ACCESS_LOG

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
    gateway processes (the first runs embedded jobs and prints the banner, unless
    ``ready.restart`` says it replaces one that did); ``ready``: called once every
    socket listens; ``emulator``: this process may start the eBay emulator (with
    several processes the parent starts one for all). A port that cannot be bound
    is a ``CannotListen`` (a usage error), not an internal one."""
    from ..loop import install

    install()
    banner: list[str] | None = [] if index == 0 and not getattr(ready, "restart", False) else None

    def listening(*_: Any) -> None:
        # run_app calls its print hook once, right after every site listens: the moment this process is ready
        if banner:
            _say(banner)
        if ready is not None:
            ready()

    try:
        web.run_app(
            open_gateway(args, config, index, emulator=emulator, banner=banner),
            host=args.host,
            port=args.port,
            print=listening,
            access_log=None,
            reuse_port=reuse_port,
            shutdown_timeout=DRAIN_SECONDS,
        )
    except OSError as error:
        if is_bind_failure(error):
            raise bind_failure(error, args.host, args.port) from None
        raise


async def open_gateway(
    args: Any, config: Any, index: int = 0, *, emulator: bool = True, banner: list[str] | None = None
) -> web.Application:
    """The app one gateway process serves, with what it needs open and its clean-up
    hooked; ``banner``, when given, receives the lines to print once it listens."""
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
    if getattr(args, "access_log", True):
        app[ACCESS_LOG] = access = AccessLog(sys.stderr)

        async def flush_access_log(_: web.Application) -> None:
            access.flush()

        app.on_shutdown.append(flush_access_log)
        app.on_cleanup.append(flush_access_log)
    else:  # nor through the logger the middleware falls back to
        logging.getLogger("qlgate.access").setLevel(logging.WARNING)
    if banner is not None:
        banner.extend(banner_lines(gather(args, app, workspace)))
    settle_heap()
    return app


def _say(lines: list[str]) -> None:
    try:
        sys.stderr.write("\n".join(lines) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed: the gateway serves on
        pass


def settle_heap() -> None:
    """Move what start-up built (tables, compiled routes, the grammar) out of the
    collector's sight and collect young objects less often: a full collection that
    walks every table definition would otherwise land in some request's latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(7000, 20, 20)
