"""Which job backend a gateway process serves ``/jobs`` from, opened: the
cluster's on ``--zookeeper`` (workers run the jobs), else the embedded one in a
SQLite file. Kept on the jobs side so that the gateway's assembly only takes a
backend, and an application embedding the gateway opens one as ``serve`` does.

Opening comes in two steps because the engine takes its limits in its constructor
and the limits count in the job backend's store (the host's SQLite file, or
ZooKeeper): ``open_jobs`` opens the backend and its limits before the workspace,
``OpenJobs.serve`` gives the backend the workspace its jobs run in.

    jobs = open_jobs(args, config)
    workspace = await Workspace.open(config=config, limits=jobs.limits)
    jobs.serve(workspace, runs_jobs=True)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..limits.gate import CallLimits
from ..limits.open import close_limits, cluster_limits, host_limits
from ..workspace import Workspace
from .backend import JobBackend
from .cluster import embedded_database
from .settings import JobsSettings

if TYPE_CHECKING:
    from ..config import Config
    from ..engine.engine import Engine
    from .local import LocalJobs

# called with anything (the gateway passes itself to its on_close hooks) when the gateway stops
Stop = Callable[[Any], Awaitable[None]]


@dataclass
class OpenJobs:
    """A job backend opened, with the limits its store keeps (None: opened without,
    for an engine that has its own), not yet serving: ``serve`` gives it the workspace
    its jobs run in; ``stop`` closes everything, served or not."""

    backend: JobBackend
    limits: CallLimits | None
    stop: Stop
    local: LocalJobs | None = field(default=None, repr=False)  # the embedded backend runs jobs itself

    def serve(self, workspace: Workspace, *, runs_jobs: bool) -> None:
        """The embedded backend runs its jobs in ``workspace`` (when ``runs_jobs``: of
        several gateway processes only the first runs them, the others take
        submissions); the cluster's run on its workers."""
        if self.local is None:
            return
        from .runner import EngineRunner

        self.local.runner = EngineRunner(workspace)
        if runs_jobs:
            self.local.start(asyncio.get_running_loop())


def open_jobs(args: Any, config: Config, *, limits: bool = True) -> OpenJobs:
    """``--zookeeper``: the cluster's backend (workers run the jobs). Otherwise the
    embedded one, in SQLite (config ``jobs.database``). No run takes longer than
    ``jobs.maxRunSeconds``, nor may a job ask for longer. ``limits``: open the limits
    the store keeps, for the engine about to be opened (``Engine(limits=…)``)."""
    from .model import check_run_seconds

    settings = JobsSettings.of(config)
    max_run_seconds = check_run_seconds(settings.max_run_seconds)
    if getattr(args, "zookeeper", None):
        return _cluster_jobs(args.zookeeper, config, settings, max_run_seconds, limits)
    return _embedded_jobs(config, settings, max_run_seconds, limits)


def open_job_backend(args: Any, workspace: Workspace | Engine, *, runs_jobs: bool) -> tuple[JobBackend, Stop]:
    """The job backend of a workspace already open (tests, an application embedding the
    gateway), serving: its engine keeps the limits it was opened with (none: its calls
    count against none), so none are opened here. Returns the backend and the coroutine
    function that stops it."""
    workspace = workspace if isinstance(workspace, Workspace) else Workspace.of(workspace)
    jobs = open_jobs(args, workspace.config, limits=False)
    jobs.serve(workspace, runs_jobs=runs_jobs)
    return jobs.backend, jobs.stop


def _cluster_jobs(
    zookeeper: str, config: Config, settings: JobsSettings, max_run_seconds: float, with_limits: bool
) -> OpenJobs:
    from ..extras import require

    require("kazoo", "cluster", "the ZooKeeper job backend (--zookeeper)")
    from .cluster import cluster_database, cluster_settings, open_archive
    from .zk.client import ZkJobs
    from .zk.session import zk_client

    timing = cluster_settings(config)
    archive = open_archive(cluster_database(config), timing)
    client = zk_client(zookeeper, timeout=settings.session_timeout, retry_max_delay=timing["retryMaxDelay"])
    client.start(30)
    jobs = ZkJobs(client, max_queue=settings.max_queue, archive=archive, max_run_seconds=max_run_seconds)
    # every call of this gateway counts cluster-wide
    limits = cluster_limits(config.data, client) if with_limits else None

    async def stop(_: Any = None) -> None:
        await asyncio.to_thread(close_limits, limits)
        await asyncio.to_thread(jobs.close)
        await asyncio.to_thread(client.stop)
        client.close()
        archive.close()

    return OpenJobs(jobs, limits, stop)


def _embedded_jobs(config: Config, settings: JobsSettings, max_run_seconds: float, with_limits: bool) -> OpenJobs:
    from .local import LocalJobs
    from .model import JobError

    database = embedded_database(settings)
    if database is None:
        try:
            from .archive_pg import mask_url

            shown = mask_url(str(settings.database))
        except ImportError:  # no psycopg (the cluster extra): the URL is not shown, its password neither
            shown = "a PostgreSQL URL"
        raise JobError(
            f"jobs.database is {shown}: the embedded backend keeps its queue "
            "in a SQLite file; a PostgreSQL database is for a ZooKeeper cluster (serve --zookeeper)"
        )
    local = LocalJobs(
        database,
        slots=settings.slots,
        max_queue=settings.max_queue,
        max_run_seconds=max_run_seconds,
    )
    try:  # every call of this gateway counts, per host
        limits = host_limits(config.data, database) if with_limits else None
    except BaseException:
        local.close()
        raise

    async def stop(_: Any = None) -> None:
        await local.stop()
        await asyncio.to_thread(close_limits, limits)
        local.close()

    return OpenJobs(local, limits, stop, local)


@contextmanager
def host_limits_if_set(config: Config) -> Iterator[CallLimits | None]:
    """``qlgate run`` and the shell: the host's limits, for the engine they open, when
    the embedded job backend has a file (where ``qlgate jobs limits/rates`` keep them);
    none to count against otherwise. Closed when the block ends."""
    database = embedded_database(JobsSettings.of(config))
    if database is None or not Path(database).is_file():
        yield None
        return
    limits = host_limits(config.data, database)
    try:
        yield limits
    finally:
        close_limits(limits)
