"""Limits on every upstream call: the partner-API limits an operator sets with
``qlgate jobs limits`` and ``qlgate jobs rates`` hold for every call any qlgate
process makes — a gateway's ``/q`` and routes, ``qlgate run``, a worker's
jobs — not for jobs alone.

- ``api_types``: which API type a table's calls count against (config
  ``limits.types``, else the table name without its last part).
- ``inflight``: calls in flight per type, in units leased from a shared store.
- ``rate``, ``slots``, ``rates``, ``clock``: call rates per type, the time slots
  calls are spaced in, the gate (``CallGate``) that leases them, and the store's
  clock the slots are in.
- ``stores``: where limits are counted — in memory, per host in the job backend's
  SQLite file (``stores/host.py``), or cluster-wide in ZooKeeper (``stores/zk_*``).
- ``open``: opening the limits a process's engine takes (``Engine(limits=…)``).

The package imports nothing above it (``tests/test_layers.py``): the job backend
takes its rates, slots and stores from here.
- ``gate``: ``CallLimits``, what a run's sender awaits before each call; a call
  that cannot get through in the time its request has left is ``LimitExceeded``
  (HTTP 429, naming the API type and when to retry).
"""

from .api_types import ApiTypes
from .errors import LimitExceeded
from .gate import CallLimits, Ticket

__all__ = ["ApiTypes", "CallLimits", "LimitExceeded", "Ticket"]
