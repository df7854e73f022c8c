"""The HTTP gateway (spec §14) on aiohttp, assembled: ad-hoc ``/q``, every route
of ``routes/``, the describe endpoints, ``/health``, the jobs API and the
console, behind one middleware (``middleware.py``) that authenticates callers
and shapes every answer. Route scripts are compiled at start-up; ``/q``
scripts on first use (cached by text).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
from pathlib import Path
from typing import Any

from aiohttp import web

from .._version import __version__
from ..engine.engine import Engine
from ..errors import QlError
from ..workspace import Workspace
from .auth import Gatekeeper
from .console import add_console
from .handlers import (BUILTIN, COMPILED_ROUTES, COMPILER, ROUTES, WORKSPACE, Compiler, handle_health, handle_q,
                       handle_route, handle_route_info, handle_route_page, handle_routes, handle_table,
                       handle_tables)
from .jobs_api import add_jobs_api
from .accesslog import AccessLog
from .middleware import ACCESS_LOG, GATEKEEPER, POLICY, gateway_middleware
from .policy import GatewayPolicy

log = logging.getLogger("qlgate.server")


def build_app(workspace: Workspace | Engine, *, enable_q: bool = True, enable_console: bool = True,
              jobs: Any = None, insecure: bool = False) -> web.Application:
    """The gateway over a workspace (an engine is wrapped in one); with ``jobs`` (a
    job backend) also ``/jobs``, ``/limits`` and ``/rates``. ``insecure``: an open
    gateway (no ``gateway.auth``) answers every client, not loopback ones only."""
    if isinstance(workspace, Engine):
        workspace = Workspace.of(workspace)
    engine = workspace.engine
    policy = GatewayPolicy.from_config(engine.config.data, disable_q=not enable_q)
    app = web.Application(client_max_size=policy.max_body_bytes, middlewares=[gateway_middleware])
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


def settle_heap() -> None:
    """Move what start-up built (tables, compiled routes, the grammar) out of the
    collector's sight and collect young objects less often: a full collection that
    walks every table definition would otherwise land in some request's latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(7000, 20, 20)


def _run_worker(args: Any, config: Any, reuse_port: bool, index: int = 0, *, emulator: bool = True) -> None:
    """One gateway process: its workspace, app and HTTP server; SIGTERM drains
    in-flight requests. ``emulator``: this process may start the eBay emulator
    (with several processes the parent starts one for all)."""
    from ..loop import install

    async def make_app() -> web.Application:
        workspace = await Workspace.open(tables=args.tables, routes=args.routes, config=config, emulator=emulator)
        for problem in workspace.problems:
            log.warning("%s", problem)
        jobs, stop_jobs = open_job_backend(args, workspace, runs_jobs=index == 0)
        app = build_app(workspace, enable_q=not args.disable_q, enable_console=not args.disable_console, jobs=jobs,
                        insecure=getattr(args, "insecure", False))
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

    install()
    web.run_app(make_app(), host=args.host, port=args.port, print=lambda *a: None, access_log=None,
                reuse_port=reuse_port, shutdown_timeout=30)


def _banner(args: Any, app: web.Application, workspace: Workspace) -> None:
    """What an operator needs to know at start-up: where, what is loaded, which
    upstreams, and who may call."""
    engine = workspace.engine
    log.info("qlgate %s on http://%s:%s: %d tables, %d routes", __version__, args.host, args.port,
             len(engine.tables), len(app[ROUTES]))
    if workspace.emulator is not None:
        log.info("no eBay credentials configured: eBay tables use the built-in emulator at %s", workspace.emulator.base)
    gatekeeper = app[GATEKEEPER]
    if not gatekeeper.open:
        log.info("API keys required (gateway.auth): %s", ", ".join(k.name for k in gatekeeper.keys))
    elif gatekeeper.insecure:
        log.warning("OPEN and --insecure: no gateway.auth, and every client that reaches %s:%s may run "
                    "scripts, submit jobs and change limits", args.host, args.port)
    else:
        log.warning("open gateway (no gateway.auth): it answers loopback clients only")


def open_job_backend(args: Any, workspace: Workspace | Engine, *, runs_jobs: bool) -> tuple[Any, Any]:
    """``--zookeeper``: the cluster's backend (workers run the jobs). Otherwise the
    embedded one, in SQLite (config ``jobs.database``); of several gateway
    processes only the first runs jobs, the others take submissions. No run takes
    longer than ``jobs.maxRunSeconds``, nor may a job ask for longer."""
    from ..jobs.model import JobError, check_run_seconds
    workspace = workspace if isinstance(workspace, Workspace) else Workspace.of(workspace)
    settings = workspace.config.data.get("jobs") or {}
    max_run_seconds = check_run_seconds(settings.get("maxRunSeconds", 3600))
    if getattr(args, "zookeeper", None):
        from ..jobs.cli import cluster_database, cluster_settings, open_archive
        from ..jobs.zk.session import zk_client
        from ..jobs.zk.client import ZkJobs
        timing = cluster_settings(workspace.config)
        archive = open_archive(cluster_database(workspace.config), timing)
        client = zk_client(args.zookeeper, timeout=float(settings.get("sessionTimeout", 10)),
                           retry_max_delay=timing["retryMaxDelay"])
        client.start(30)
        jobs: Any = ZkJobs(client, max_queue=int(settings.get("maxQueue", 100_000)), archive=archive,
                           max_run_seconds=max_run_seconds)

        async def stop_zk(_: web.Application) -> None:
            await asyncio.to_thread(jobs.close)
            await asyncio.to_thread(client.stop)
            client.close()
            archive.close()
        return jobs, stop_zk
    from ..jobs.local import LocalJobs
    from ..jobs.runner import EngineRunner
    from ..jobs.rates import CallGate
    database = settings.get("database") or os.environ.get("QLGATE_JOBS_DATABASE") or ".qlgate/jobs.sqlite"
    if "://" in str(database) and not str(database).startswith("sqlite:///"):
        from ..jobs.archive_pg import mask_url
        raise JobError(f"jobs.database is {mask_url(str(database))}: the embedded backend keeps its queue in a "
                       "SQLite file; a PostgreSQL database is for a ZooKeeper cluster (serve --zookeeper)")
    database = str(database).removeprefix("sqlite://")
    local = LocalJobs(database, slots=int(settings.get("slots", 4)), max_queue=int(settings.get("maxQueue", 100_000)),
                      max_run_seconds=max_run_seconds)
    local.runner = EngineRunner(workspace, CallGate(local.tokens))
    if runs_jobs:
        local.start(asyncio.get_running_loop())

    async def stop_local(_: web.Application) -> None:
        await local.stop()
        local.close()
    return local, stop_local


def serve(args: Any) -> int:
    """``qlgate serve``; with ``--workers N`` N processes share the port (SO_REUSEPORT)."""
    import multiprocessing
    import signal

    from ..cli import UsageError
    from ..config import Config
    from ..sandbox.auto import wants_emulator
    from ..workspace import load_config
    from .auth import loopback_host

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s", force=True)
    config = load_config(args.config)
    gatekeeper = Gatekeeper.from_config(config.data)          # a bad key list stops us here, not per request
    if gatekeeper.open and not loopback_host(args.host) and not getattr(args, "insecure", False):
        raise UsageError(f"refusing to serve on {args.host} without API keys: configure gateway.auth "
                         "(see README, Deploying), or pass --insecure to serve every client that can reach it")
    workers = max(1, int(getattr(args, "workers", 1) or 1))
    if workers == 1:
        _run_worker(args, config, reuse_port=False)
        return 0
    emulator = None
    if wants_emulator(config):
        # one emulator for every worker, so they all see the same marketplace
        from ..sandbox.app import emulator_config
        from ..sandbox.auto import merge_config
        from ..cli import _free_port
        port = _free_port()
        config = Config.from_dict(merge_config(config.data, emulator_config(f"http://127.0.0.1:{port}")), env={},
                                  secrets=config.secrets, path=config.path)
        emulator = multiprocessing.get_context("fork").Process(
            target=_run_emulator, args=(port,), name="qlgate-emulator", daemon=True)
        emulator.start()
    context = multiprocessing.get_context("fork")
    procs = [context.Process(target=_run_worker, args=(args, config, True, i), kwargs={"emulator": False},
                             name=f"qlgate-worker-{i}") for i in range(workers)]
    log.info("%d gateway processes share port %s", workers, args.port)
    for proc in procs:
        proc.start()

    def forward(signum: int, _frame: Any) -> None:
        for proc in procs:
            if proc.is_alive():
                os.kill(proc.pid, signal.SIGTERM)
    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    for proc in procs:
        proc.join()
    if emulator is not None:
        emulator.terminate()
        emulator.join(5)
    return 0


def _run_emulator(port: int) -> None:
    from ..loop import run
    from ..sandbox.app import RunningSandbox

    async def main() -> None:
        running = await RunningSandbox().start(port=port)
        try:
            await asyncio.Event().wait()
        finally:
            await running.stop()
    run(main())
