"""One gateway process, from its configuration to a listening socket: the
workspace opened, the job backend, the gateway assembled, the log sink that
takes the access log and every log record off the event loop (``logsink.py``),
the heap settled, then the server (``server.py``) until SIGTERM or SIGINT,
which drain in-flight requests for up to ``DRAIN_SECONDS``. The first process
whose socket listens prints the banner (``banner.py``) before it answers anyone.
``qlgate serve`` runs one such process, or ``process.py``'s supervisor runs several.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from ..jobs.factory import open_jobs
from ..workspace import Workspace, load_config
from .app import build_app
from .banner import gather
from .banner import lines as banner_lines
from .gateway import Gateway
from .listen import bind_failure, is_bind_failure
from .logsink import LogSink, LogSinkHandler
from .metrics_share import MetricsShare
from .probing import start_probing
from .readiness import checks_of
from .server import DRAIN_SECONDS, Server

log = logging.getLogger("qlgate.server")

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
SINK_CLOSE_S = 2.0  # at exit, how long the log's last lines may take to go out
CLOSE_S = 10.0  # after the drain, how long closing the job backend and workspace may take


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
    gateway processes (the first runs embedded jobs); the first to listen prints the
    banner (``ready.first()``), unless ``ready.restart`` says it replaces one that
    died; ``ready``: called once every
    socket listens; ``emulator``: this process may start the eBay emulator (with
    several processes the parent starts one for all). A port that cannot be bound
    is a ``CannotListen`` (a usage error), not an internal one."""
    from ..loop import run

    sink = LogSink(sys.stderr)
    _log_through(sink)
    # every first-generation process gathers it; the first of them to listen prints it
    banner: list[str] | None = None if getattr(ready, "restart", False) else []
    try:
        run(_serve(args, config, index, ready, sink, reuse_port=reuse_port, emulator=emulator, banner=banner))
    finally:
        sink.close(SINK_CLOSE_S)


async def _serve(
    args: Any,
    config: Any,
    index: int,
    ready: Callable[[], None] | None,
    sink: LogSink,
    *,
    reuse_port: bool,
    emulator: bool,
    banner: list[str] | None,
) -> None:
    loop = asyncio.get_running_loop()
    stop = Stopping(sink)
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.signalled)
    gateway = await open_gateway(args, config, index, emulator=emulator, banner=banner, sink=sink)
    server = Server(gateway)
    try:
        try:
            await server.listen(args.host, args.port, reuse_port=reuse_port)
        except OSError as error:
            if is_bind_failure(error):
                raise bind_failure(error, args.host, args.port) from None
            raise
        if banner and (ready is None or getattr(ready, "first", lambda: index == 0)()):
            _say(sink, banner)
        if ready is not None:
            ready()
        await stop.wait()
        await server.shutdown(DRAIN_SECONDS)
    finally:
        await gateway.close()


class Stopping:
    """SIGTERM or SIGINT. The first drains the server (``DRAIN_SECONDS``) and closes the
    gateway; should that not be done ``CLOSE_S`` after the drain (a job backend that does
    not answer, a thread that does not end), a watchdog ends the process. A second
    signal ends it at once, as an impatient operator means."""

    def __init__(self, sink: LogSink) -> None:
        self.sink = sink
        self.signals = 0
        self._event = asyncio.Event()

    def signalled(self) -> None:
        self.signals += 1
        if self.signals > 1:
            self._exit_now("a second signal")
        self._event.set()
        watchdog = threading.Timer(DRAIN_SECONDS + CLOSE_S, self._exit_now, ("it did not stop in time",))
        watchdog.daemon = True
        watchdog.start()

    async def wait(self) -> None:
        await self._event.wait()

    def _exit_now(self, why: str) -> None:
        self.sink.write(f"qlgate serve: stopped at once: {why}")
        self.sink.flush(0.5)
        os._exit(1)


async def open_gateway(
    args: Any,
    config: Any,
    index: int = 0,
    *,
    emulator: bool = True,
    banner: list[str] | None = None,
    sink: LogSink | None = None,
) -> Gateway:
    """The gateway one process serves, with what it needs open and its clean-up
    hooked; ``banner``, when given, receives the lines to print once it listens;
    ``sink``: where its access log goes (none: ``--no-access-log``, or the logger)."""
    loaded = load_config(config)
    # the job backend first: the engine takes the limits its store keeps when it is opened
    jobs = open_jobs(args, loaded)
    workspace: Workspace | None = None
    try:
        workspace = await Workspace.open(
            tables=args.tables, routes=args.routes, config=loaded, emulator=emulator, limits=jobs.limits
        )
        for problem in workspace.problems:
            log.warning("%s", problem)
        jobs.serve(workspace, runs_jobs=index == 0)
        gateway = build_app(
            workspace,
            enable_q=not args.disable_q,
            enable_console=not args.disable_console,
            jobs=jobs.backend,
            insecure=getattr(args, "insecure", False),
        )
    except BaseException:
        await jobs.stop(None)
        if workspace is not None:
            await workspace.close()
        raise
    gateway.on_close(lambda: jobs.stop(gateway))
    emulator_base = getattr(args, "emulator_base", None)
    if emulator_base:  # --workers: the supervisor's emulator, which /ready checks too
        gateway.readiness = checks_of(gateway, emulator_base)
    every = getattr(args, "probe_every", None)
    if every and index == 0:  # one worker probes: N would spend the partners' quota N times
        start_probing(gateway, max(1.0, every), args.probe_state)
    if not getattr(args, "metrics", True):
        gateway.metrics = None
    metrics_dir = getattr(args, "metrics_dir", None)
    if metrics_dir and gateway.metrics is not None:  # --workers: every worker's counts in each scrape
        share = gateway.metrics_share = MetricsShare(metrics_dir, index, gateway, gateway.metrics)
        share.resume()
        share.start()
        gateway.on_close(share.stop)
    if getattr(args, "access_log", True):
        gateway.access_log = sink
    else:  # nor through the logger the access log falls back to
        logging.getLogger("qlgate.access").setLevel(logging.WARNING)
    if banner is not None:
        banner.extend(banner_lines(gather(args, gateway, workspace)))
    settle_heap()
    return gateway


def _log_through(sink: LogSink) -> None:
    """Every log record of this process goes out through ``sink``: none is written
    from the event loop, where a stalled stderr would stop it."""
    root = logging.getLogger()
    level = root.level if root.handlers else logging.INFO
    handler = LogSinkHandler(sink)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)


def _say(sink: LogSink, lines: list[str]) -> None:
    """The banner, out before the supervisor hears this process is ready."""
    sink.write("\n".join(lines))
    sink.flush(1.0)


def settle_heap() -> None:
    """Move what start-up built (tables, compiled routes, the grammar) out of the
    collector's sight and collect young objects less often: a full collection that
    walks every table definition would otherwise land in some request's latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(7000, 20, 20)
    fix_mmap_threshold()


M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
MMAP_THRESHOLD = 128 * 1024


def fix_mmap_threshold() -> None:
    """Blocks of 128 KiB and more come from their own mappings, given back when freed.
    glibc raises that threshold each time such a block is freed, and from then on serves
    big blocks (request heads, upstream answers) from the heap, which keeps what it held:
    300 clients holding unfinished heads left 60 MB behind them after they closed. Setting
    the threshold fixes it where it is; anything but glibc (and an operator's own
    ``MALLOC_MMAP_THRESHOLD_``) is left alone."""
    if os.environ.get("MALLOC_MMAP_THRESHOLD_") or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    except (OSError, AttributeError):  # not glibc (musl has no mallopt to speak of)
        pass
