"""``qlgate worker`` and ``qlgate limiter``: the long-running processes of a job
cluster on ZooKeeper. A worker runs jobs in its slots (and, unless told not to,
stands for limiter master); a limiter only stands for master, so its grants
never wait behind job work. Both stop on SIGTERM or SIGINT within a bound,
whatever ZooKeeper's state.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from typing import Any

from ..jobs.cluster import cluster_database, cluster_settings, open_archive
from .arguments import add_workspace_options, number_in

log = logging.getLogger("qlgate.jobs")

LOG_LEVELS = ("debug", "info", "warning", "error")

WORKER = """Join the job cluster on ZooKeeper and run its jobs, --slots at a
time, each under the trust it was submitted with; stand for limiter master too
unless --no-limiter. SIGTERM hands back what is running within --stop-timeout;
runs a worker could not hand back are re-run elsewhere once its session expires."""

LIMITER = """Stand for limiter master of the job cluster on ZooKeeper and run no
jobs. The master lets queued jobs through when a slot of each of their types is
free and a worker has room, and moves finished jobs to the database after
--keep-finished; a dedicated candidate keeps those decisions off busy workers."""


def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--zookeeper", required=True, metavar="HOST:PORT[,...]")
    add_workspace_options(parser, routes=False)
    parser.add_argument("--slots", type=number_in("--slots", 1), default=4, help="runs at once on this worker")
    parser.add_argument("--name", help="worker name (default: host-pid)")
    parser.add_argument(
        "--session-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="ZooKeeper session timeout: how long a dead worker's runs stay held",
    )
    parser.add_argument("--no-limiter", action="store_true", help="do not stand for limiter master")
    parser.add_argument("--log-level", default="info", choices=LOG_LEVELS)
    parser.add_argument(
        "--database",
        "--archive",
        dest="database",
        metavar="URL|FILE",
        help="the cluster's database of finished jobs and results: a postgresql:// URL or a SQLite file "
        "(default: config jobs.database, else $QLGATE_JOBS_DATABASE, else .qlgate/jobs.sqlite); keep a "
        "password out of the URL with PGPASSWORD or ~/.pgpass",
    )
    parser.add_argument(
        "--keep-finished",
        type=float,
        default=3600.0,
        metavar="S",
        help="how long finished jobs stay in ZooKeeper before they are archived",
    )
    parser.add_argument(
        "--stop-timeout",
        type=float,
        default=None,
        metavar="S",
        help="SIGTERM stops the worker within S seconds whatever ZooKeeper's state "
        "(default: config jobs.stopTimeout, 10)",
    )
    parser.add_argument("--root", default="/qlgate", help=argparse.SUPPRESS)


def add_limiter_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--zookeeper", required=True, metavar="HOST:PORT[,...]")
    parser.add_argument("--name", help="candidate name (default: limiter-host-pid)")
    parser.add_argument("--session-timeout", type=float, default=10.0, metavar="S")
    parser.add_argument("--log-level", default="info", choices=LOG_LEVELS)
    parser.add_argument(
        "--database",
        "--archive",
        dest="database",
        metavar="URL|FILE",
        help="the cluster's database of finished jobs (as for worker)",
    )
    parser.add_argument("--keep-finished", type=float, default=3600.0, metavar="S")
    parser.add_argument(
        "--stop-timeout",
        type=float,
        default=None,
        metavar="S",
        help="SIGTERM stops the limiter within S seconds (default: config jobs.stopTimeout, 10)",
    )
    parser.add_argument("--config", metavar="FILE", help="config file (default: config/dev.json)")
    parser.add_argument("--root", default="/qlgate", help=argparse.SUPPRESS)


def run_worker(args: argparse.Namespace) -> int:
    import asyncio

    from ..jobs.runner import EngineRunner
    from ..jobs.zk.limiter import Limiter
    from ..jobs.zk.session import zk_client
    from ..jobs.zk.worker import Worker
    from ..limits.open import close_limits, cluster_limits
    from ..loop import install
    from ..workspace import Workspace, load_config

    _log_to_stderr(args.log_level)
    config = load_config(args.config)
    settings = cluster_settings(config, args)
    # the limiter and kazoo threads wait on the network all the time; with the default
    # 5 ms switch interval each wait costs them up to 5 ms behind the busy job loop
    sys.setswitchinterval(0.0002)
    install()
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="worker-loop", daemon=True).start()
    client = zk_client(args.zookeeper, timeout=args.session_timeout, retry_max_delay=settings["retryMaxDelay"])
    client.start(30)
    # the API types' limits hold for every call of every run, cluster-wide (qlgate/limits); the
    # worker gives the runner a gate of its lease: every call of a run checks it (zk/lease.py)
    limits = cluster_limits(config.data, client, root=args.root)
    # jobs run under the trust they were submitted with: this config's gateway.adhoc for callers' scripts
    opening = Workspace.open(tables=args.tables, config=config, limits=limits)
    workspace = asyncio.run_coroutine_threadsafe(opening, loop).result(30)
    if workspace.emulator is not None:
        log.warning(
            "no eBay credentials: this worker's eBay tables use its own emulator at %s", workspace.emulator.base
        )
    archive = open_archive(cluster_database(config, args), settings)
    worker = Worker(
        client,
        EngineRunner(workspace),
        name=args.name,
        slots=args.slots,
        root=args.root,
        loop=loop,
        max_run_seconds=settings["maxRunSeconds"],
        call_timeout=settings["callTimeout"],
        archive=archive,
        max_result_bytes=int(settings["maxResultBytes"]),
    )
    limiter = (
        None
        if args.no_limiter
        else Limiter(
            client,
            name=worker.name,
            root=args.root,
            archive=archive,
            keep_finished=args.keep_finished,
            server_lag=settings["serverLag"],
        )
    )
    stop = _stop_on_signals()
    worker.start()
    if limiter is not None:
        limiter.start()
    log.info(
        "worker %s with %d slot(s) on %s%s",
        worker.name,
        args.slots,
        args.zookeeper,
        "" if limiter is not None else " (no limiter here)",
    )
    stop.wait()
    bound = settings["stopTimeout"]
    _exit_at_the_latest(bound, f"worker {worker.name}")
    log.info("worker %s stopping within %g s: runs in hand get 40%% of it to finish", worker.name, bound)
    if limiter is not None:
        limiter.stop(timeout=bound * 0.1)
    worker.stop(drain=True, timeout=bound * 0.8)
    # unspent call tokens and units go back for the others, if ZooKeeper answers in time
    giving_back = threading.Thread(target=close_limits, args=(limits,), daemon=True)
    giving_back.start()
    giving_back.join(bound * 0.05)
    _close_client(client, bound * 0.1)
    log.info("worker %s stopped", worker.name)
    return 0


def run_limiter(args: argparse.Namespace) -> int:
    """A dedicated limiter candidate: its decisions never wait behind job work."""
    import socket

    from ..jobs.zk.limiter import Limiter
    from ..jobs.zk.session import zk_client
    from ..workspace import load_config

    _log_to_stderr(args.log_level)
    config = load_config(args.config)
    settings = cluster_settings(config, args)
    archive = open_archive(cluster_database(config, args), settings)
    sys.setswitchinterval(0.0002)  # decisions wait on kazoo's thread: hand the GIL over promptly
    client = zk_client(args.zookeeper, timeout=args.session_timeout, retry_max_delay=settings["retryMaxDelay"])
    client.start(30)
    limiter = Limiter(
        client,
        name=args.name or f"limiter-{socket.gethostname()}-{os.getpid()}",
        root=args.root,
        archive=archive,
        keep_finished=args.keep_finished,
        server_lag=settings["serverLag"],
    ).start()
    stop = _stop_on_signals()
    log.info("limiter %s on %s", limiter.name, args.zookeeper)
    stop.wait()
    bound = settings["stopTimeout"]
    _exit_at_the_latest(bound, f"limiter {limiter.name}")
    limiter.stop(timeout=bound * 0.8)
    _close_client(client, bound * 0.2)
    return 0


def _log_to_stderr(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level.upper()), format="%(asctime)s %(levelname)s %(name)s %(message)s", force=True
    )
    # kazoo's own lines on a lost connection repeat ours, with a traceback: errors only
    logging.getLogger("kazoo").setLevel(logging.ERROR)


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    return stop


def _exit_at_the_latest(seconds: float, what: str) -> None:
    """Whatever blocks the orderly stop (a ZooKeeper away, a thread in a call), the
    process ends ``seconds`` after the signal: runs it could not hand back are
    re-run elsewhere once its session has expired."""

    def hard_exit() -> None:
        log.warning("%s: not stopped within %g s; exiting now", what, seconds)
        logging.shutdown()
        os._exit(0)

    timer = threading.Timer(seconds, hard_exit)
    timer.daemon = True
    timer.start()


def _close_client(client: Any, seconds: float) -> None:
    """End the session (kazoo's stop waits on its connection thread: bounded here)."""
    closer = threading.Thread(target=lambda: (client.stop(), client.close()), daemon=True)
    closer.start()
    closer.join(max(0.1, seconds))
