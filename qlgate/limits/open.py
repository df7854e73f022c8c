"""Opening the limits a process's engine counts every call against: in the
host's SQLite file (the embedded job backend's) or in ZooKeeper across a
cluster. Whoever opens the store for a process (``serve``, ``run``, a worker)
calls one of these, hands what it returns to the engine it opens
(``Engine(limits=…)``, ``Workspace.open(limits=…)``), and closes it with
``close_limits`` when the process stops."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .api_types import ApiTypes
from .gate import CallLimits
from .inflight import InFlight
from .rates import CallGate


def host_limits(config: Mapping[str, Any], database: str | Path) -> CallLimits:
    """Limits per host, counted in the embedded job backend's SQLite file; ``config``:
    the config's data (its ``limits.types`` say which API type a table counts against)."""
    from .stores.host import HostLimits

    store = HostLimits(database)
    return CallLimits(ApiTypes.from_config(config), CallGate(store), InFlight(store))


def cluster_limits(config: Mapping[str, Any], client: Any, *, root: str = "/qlgate") -> CallLimits:
    """Limits across a cluster, counted in ZooKeeper (``client``, a started kazoo client)."""
    from .stores.zk_rates import ZkTokens
    from .stores.zk_units import ZkUnits

    gate = CallGate(ZkTokens(client, root=root))
    return CallLimits(ApiTypes.from_config(config), gate, InFlight(ZkUnits(client, root=root)))


def close_limits(limits: CallLimits | None) -> None:
    """Give back what the limits hold, and close their store (blocking)."""
    if limits is not None:
        limits.close()  # cancels its background work too
        store = getattr(limits.inflight, "store", None)
        close = getattr(store, "close", None)
        if callable(close):
            close()
