"""The incoming gateway request a script runs for, as scripts, table hooks and
UDFs see it. A leaf module: the tables' hook specs (a lower layer than the
engine) name it, the engine hands it to a run, the gateway builds it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class RequestInfo:
    """The incoming gateway request a script runs for (spec §5.2 layers 4–6)."""

    query: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, Any] = field(default_factory=dict)
    connection: dict[str, Any] = field(default_factory=dict)
    route_params: dict[str, Any] = field(default_factory=dict)
