"""Which job backend a gateway process serves ``/jobs`` from, opened: the
cluster's on ``--zookeeper`` (workers run the jobs), else the embedded one in a
SQLite file. Kept on the jobs side so that the gateway's assembly only takes a
backend, and an application embedding the gateway opens one as ``serve`` does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..limits.gate import CallLimits
from ..limits.open import close_limits, cluster_limits, host_limits
from ..workspace import Workspace
from .backend import JobBackend
from .cluster import embedded_database

if TYPE_CHECKING:
    from ..config import Config
    from ..engine.engine import Engine

# called with anything (aiohttp passes its app to on_cleanup hooks) when the gateway stops
Stop = Callable[[Any], Awaitable[None]]


def open_job_backend(args: Any, workspace: Workspace | Engine, *, runs_jobs: bool) -> tuple[JobBackend, Stop]:
    """``--zookeeper``: the cluster's backend (workers run the jobs). Otherwise the
    embedded one, in SQLite (config ``jobs.database``); of several gateway
    processes only the first runs jobs, the others take submissions. No run takes
    longer than ``jobs.maxRunSeconds``, nor may a job ask for longer. Returns the
    backend and the coroutine function that stops it."""
    from .model import check_run_seconds

    workspace = workspace if isinstance(workspace, Workspace) else Workspace.of(workspace)
    settings = workspace.config.data.get("jobs") or {}
    max_run_seconds = check_run_seconds(settings.get("maxRunSeconds", 3600))
    if getattr(args, "zookeeper", None):
        return _cluster_backend(args.zookeeper, workspace, settings, max_run_seconds)
    return _embedded_backend(workspace, settings, max_run_seconds, runs_jobs=runs_jobs)


def _cluster_backend(
    zookeeper: str, workspace: Workspace, settings: dict[str, Any], max_run_seconds: float
) -> tuple[JobBackend, Stop]:
    from ..extras import require

    require("kazoo", "cluster", "the ZooKeeper job backend (--zookeeper)")
    from .cluster import cluster_database, cluster_settings, open_archive
    from .zk.client import ZkJobs
    from .zk.session import zk_client

    timing = cluster_settings(workspace.config)
    archive = open_archive(cluster_database(workspace.config), timing)
    client = zk_client(
        zookeeper, timeout=float(settings.get("sessionTimeout", 10)), retry_max_delay=timing["retryMaxDelay"]
    )
    client.start(30)
    jobs = ZkJobs(
        client, max_queue=int(settings.get("maxQueue", 100_000)), archive=archive, max_run_seconds=max_run_seconds
    )
    # every call of this gateway counts cluster-wide
    limits = workspace.engine.adopt_limits(cluster_limits(workspace.config.data, client))

    async def stop(_: Any = None) -> None:
        await asyncio.to_thread(close_limits, limits)
        await asyncio.to_thread(jobs.close)
        await asyncio.to_thread(client.stop)
        client.close()
        archive.close()

    return jobs, stop


def _embedded_backend(
    workspace: Workspace, settings: dict[str, Any], max_run_seconds: float, *, runs_jobs: bool
) -> tuple[JobBackend, Stop]:
    from .local import LocalJobs
    from .model import JobError
    from .runner import EngineRunner

    database = embedded_database(settings)
    if database is None:
        try:
            from .archive_pg import mask_url

            shown = mask_url(str(settings.get("database")))
        except ImportError:  # no psycopg (the cluster extra): the URL is not shown, its password neither
            shown = "a PostgreSQL URL"
        raise JobError(
            f"jobs.database is {shown}: the embedded backend keeps its queue "
            "in a SQLite file; a PostgreSQL database is for a ZooKeeper cluster (serve --zookeeper)"
        )
    local = LocalJobs(
        database,
        slots=int(settings.get("slots", 4)),
        max_queue=int(settings.get("maxQueue", 100_000)),
        max_run_seconds=max_run_seconds,
    )
    # every call of this gateway counts, per host
    limits = workspace.engine.adopt_limits(host_limits(workspace.config.data, database))
    local.runner = EngineRunner(workspace)
    if runs_jobs:
        local.start(asyncio.get_running_loop())

    async def stop(_: Any = None) -> None:
        await local.stop()
        await asyncio.to_thread(close_limits, limits)
        local.close()

    return local, stop


@contextmanager
def host_limits_if_set(config: Config) -> Iterator[CallLimits | None]:
    """``qlgate run`` and the shell: the host's limits, for the engine they open, when
    the embedded job backend has a file (where ``qlgate jobs limits/rates`` keep them);
    none to count against otherwise. Closed when the block ends."""
    settings = config.data.get("jobs") or {}
    database = embedded_database(settings if isinstance(settings, dict) else {})
    if database is None or not Path(database).is_file():
        yield None
        return
    limits = host_limits(config.data, database)
    try:
        yield limits
    finally:
        close_limits(limits)
