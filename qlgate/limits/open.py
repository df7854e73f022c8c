"""Giving an engine its limits: the store it shares them through is the job
backend's — the host's SQLite file embedded, ZooKeeper in a cluster. Whoever
opens the backend for a process (``serve``, ``run``, a worker) calls one of
these, and closes what it returns when the process stops."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..jobs.rates import CallGate
from .gate import CallLimits
from .inflight import InFlight

if TYPE_CHECKING:
    from ..engine.engine import Engine


def host_limits(engine: Engine, database: str | Path) -> CallLimits:
    """Limits per host, counted in the embedded job backend's SQLite file."""
    from .host_store import HostLimits

    store = HostLimits(database)
    limits = CallLimits(engine.api_types, CallGate(store), InFlight(store))
    engine.limits = limits
    return limits


def cluster_limits(engine: Engine, client: Any, *, root: str = "/qlgate") -> CallLimits:
    """Limits across a cluster, counted in ZooKeeper with the job backend's leases."""
    from ..jobs.zk.rates import ZkTokens
    from ..jobs.zk.units import ZkUnits

    limits = CallLimits(engine.api_types, CallGate(ZkTokens(client, root=root)), InFlight(ZkUnits(client, root=root)))
    engine.limits = limits
    return limits


def close_limits(engine: Engine) -> None:
    """Give back what the engine's limits hold, and forget them (blocking)."""
    limits, engine.limits = engine.limits, None
    if limits is not None:
        limits.close()  # cancels its background work too
        store = getattr(limits.inflight, "store", None)
        close = getattr(store, "close", None)
        if callable(close):
            close()


@contextmanager
def host_limits_if_set(engine: Engine) -> Iterator[CallLimits | None]:
    """``qlgate run``: the host's limits, when its embedded job backend has a file
    (where ``qlgate jobs limits/rates`` keep them); none to count against otherwise."""
    from ..jobs.cluster import embedded_database

    settings = engine.config.data.get("jobs") or {}
    database = embedded_database(settings if isinstance(settings, dict) else {})
    if database is None or not Path(database).is_file():
        yield None
        return
    limits = host_limits(engine, database)
    try:
        yield limits
    finally:
        close_limits(engine)
