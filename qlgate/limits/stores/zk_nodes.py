"""The ZooKeeper nodes the limits keep under a root (``/qlgate`` by default) and
how their data is written::

    limits/<type>          how many calls (and job runs) of the type may be in flight at once
    calls/<type>/…         the units each process holds (``zk_units.py``)
    rates/<type>           the type's call rate; tokens/… its leases (``zk_rates.py``)

The job backend keeps its own nodes beside them (``qlgate/jobs/zk/layout.py``)
and writes them the same way, with these helpers."""

from __future__ import annotations

import json
from typing import Any


def limits_path(root: str) -> str:
    return f"{root}/limits"


def limit_path(root: str, api_type: str) -> str:
    return f"{root}/limits/{api_type}"


def encode(value: Any) -> bytes:
    """ASCII-only JSON: any Unicode a record holds, a lone surrogate too, travels as an escape
    (UTF-8 cannot encode a lone surrogate; the embedded backend stores records the same way)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True).encode()


def decode(data: bytes) -> Any:
    return json.loads(data.decode()) if data else None


def first_failure(results: list) -> Exception | None:
    """The operation that failed a transaction (kazoo reports one result per operation;
    the others only say they were rolled back)."""
    return next((r for r in results if isinstance(r, Exception) and type(r).__name__ != "RolledBackError"), None)
