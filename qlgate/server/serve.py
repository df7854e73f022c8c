"""``qlgate serve``: the HTTP gateway as a command — its options, the checks
that refuse an unsafe start, and the choice between one process and
``--workers N`` under the supervisor (with one eBay emulator for them all).

The server and the engine are imported when the command runs, not at the top:
this module is imported whenever the command line is parsed.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import tempfile
from functools import partial
from typing import Any

from ..commands.arguments import UsageError, add_workspace_options

log = logging.getLogger("qlgate.server")

# SIGTERM: a worker drains for startup.DRAIN_SECONDS (30), then closes its job backend and
# workspace; the supervisor kills whatever still runs this long after the signal
STOP_SECONDS = 40.0

DESCRIPTION = """Run the HTTP gateway: ad-hoc scripts at /q, every route of the
routes tree, the describe endpoints, /health, the jobs API and the web console.
Without gateway.auth in the config it answers loopback clients only and refuses
a non-loopback --host unless --insecure. It serves from one process per CPU core
on one port (--workers N to choose); a worker that dies is started again. SIGTERM or Ctrl-C drains
in-flight requests and stops. Once it listens it prints where, what it loaded, which upstreams
(the eBay emulator or eBay's own) and who may call; then one access-log line per request, on
stderr (--no-access-log to turn it off). A port in use ends it at once with exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_workspace_options(parser)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=3000, help="the port to listen on (default 3000)")
    parser.add_argument("--disable-q", action="store_true", help="do not serve ad-hoc /q scripts")
    parser.add_argument("--disable-console", action="store_true", help="do not serve the web console at /console")
    parser.add_argument(
        "--no-access-log",
        dest="access_log",
        action="store_false",
        help="do not write the access log (one JSON line per request on stderr)",
    )
    parser.add_argument(
        "--probe-every",
        type=float,
        metavar="SECONDS",
        help="probe the tables' examples in the background (qlgate probe) and export the results in /metrics",
    )
    parser.add_argument(
        "--probe-state",
        default=".qlgate/probe.json",
        metavar="FILE",
        help="where --probe-every keeps the last good shapes (default %(default)s)",
    )
    parser.add_argument(
        "--no-metrics",
        dest="metrics",
        action="store_false",
        help="do not count for GET /metrics (it answers an empty page)",
    )
    parser.add_argument(
        "--workers",
        type=workers_count,
        default="auto",
        metavar="N|auto",
        help="serve from N processes on one port (default auto: one per CPU core this process may use)",
    )
    parser.add_argument(
        "--zookeeper",
        metavar="HOST:PORT[,...]",
        help="accept jobs for this ZooKeeper cluster (default: run them in-process)",
    )
    parser.add_argument(
        "--insecure",
        action="store_true",
        help="without gateway.auth, still serve a non-loopback --host (every client may call)",
    )


def port_number(text: str) -> int:
    """``--port``: a TCP port, 1 to 65535."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"--port takes a number from 1 to 65535, not {text[:20]!r}")
    return int(text)


def workers_count(text: str) -> int:
    """``--workers``: a whole number from 1, or ``auto`` for one process per core."""
    if text == "auto":
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not Linux
            return max(1, os.cpu_count() or 1)
    if not text.isdigit() or not 1 <= int(text) <= 256:
        raise argparse.ArgumentTypeError(f"--workers takes a number from 1 to 256 or auto, not {text[:20]!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    """Serve until a signal; with ``--workers N`` N processes share the port (SO_REUSEPORT).
    A port that is taken stops it before anything loads (``listen.py``)."""
    from ..ebay.environments import choose
    from ..workspace import load_config
    from .auth import Gatekeeper, loopback_host
    from .listen import check_can_listen
    from .process import Supervisor
    from .startup import run_gateway

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s", force=True)
    config = load_config(args.config)
    if "ebay" in config.data:  # which eBay, and why, for the banner; half of eBay's keys stops here
        args.ebay_choice = choose(config)
    gatekeeper = Gatekeeper.from_config(config.view)  # a bad key list stops us here, not per request
    if gatekeeper.open and not loopback_host(args.host) and not getattr(args, "insecure", False):
        raise UsageError(
            f"refusing to serve on {args.host} without API keys: configure gateway.auth "
            "(see README, Deploying), or pass --insecure to serve every client that can reach it"
        )
    workers = getattr(args, "workers", 1)
    workers = workers_count(workers) if isinstance(workers, str) else max(1, int(workers or 1))
    args.workers = workers  # the banner says how many
    check_can_listen(args.host, args.port)
    if workers == 1:
        run_gateway(args, config)
        return 0
    config, emulator, args.emulator_base = _shared_emulator(config)  # each worker's /ready checks it
    # each worker's metrics snapshot, for the one that answers /metrics (metrics_share.py)
    args.metrics_dir = tempfile.mkdtemp(prefix="qlgate-metrics-")
    try:
        gateway = partial(run_gateway, args, config, reuse_port=True, emulator=False)
        return Supervisor(gateway, workers, name="worker", stop_timeout=STOP_SECONDS).run()
    finally:
        shutil.rmtree(args.metrics_dir, ignore_errors=True)
        if emulator is not None:
            emulator.terminate()
            emulator.join(5)


_EMULATED = {"ebay": {"environment": "emulator"}}


def _shared_emulator(config: Any) -> tuple[Any, Any, str | None]:
    """When the config wants the eBay emulator: one process of it for every
    worker, so they all see the same marketplace, and the config pointed at it."""
    import multiprocessing

    from ..config import Config
    from ..ebay.emulation import emulator_config, merge_config, wants_emulator, with_ebay_endpoints
    from ..ports import free_port

    if not wants_emulator(config):
        return with_ebay_endpoints(config), None, None
    port = free_port()
    config = Config.from_dict(
        # the workers see an eBay already set up, as the emulator (the banner says so)
        merge_config(merge_config(config.data, emulator_config(f"http://127.0.0.1:{port}")), _EMULATED),
        env={},
        secrets=config.secrets,
        path=config.path,
    )
    emulator = multiprocessing.get_context("fork").Process(
        target=_run_emulator, args=(port,), name="qlgate-emulator", daemon=True
    )
    emulator.start()
    return config, emulator, f"http://127.0.0.1:{port}"


def _run_emulator(port: int) -> None:
    import asyncio

    from ..ebay.emulation import running_emulator as RunningSandbox
    from ..loop import run

    async def main() -> None:
        running = await RunningSandbox().start(port=port)
        try:
            await asyncio.Event().wait()
        finally:
            await running.stop()

    run(main())
