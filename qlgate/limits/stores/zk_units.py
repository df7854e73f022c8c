"""Calls in flight per API type, counted cluster-wide in ZooKeeper (the store
of ``qlgate/limits/inflight.py``)::

    limits/<type>             the type's limit (the job limiter's, watched here)
    calls/<type>              written on every lease: its version orders them
    calls/<type>/<holder>     ephemeral, one per process: the units it holds and
                              how many more it wants (JSON: n, w)

Taking units reads the type's node and every holder's count, and commits — only
if the type's node is still at the version it read — its own count raised,
within the limit; two processes taking at once cannot both win, the loser reads
again. Lowering its own count needs no such check: no one can exceed a limit by
reading a count that is too high. Counts are written as they are, not as
differences, so a write whose answer was lost is simply made again.

A holder node is ephemeral: a process that dies, or whose session expires,
gives its units back with its session. The process notices the new session
(``epoch``) and leases afresh; calls it had in flight when its session expired
are the most a limit can be exceeded by, for as long as those calls last.
"""

from __future__ import annotations

import os
import socket
import threading
import uuid

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import BadVersionError, NodeExistsError, NoNodeError

from ..inflight import Holding, settle
from .zk_nodes import decode, encode, first_failure, limit_path, limits_path


class ZkUnits:
    blocks = True

    def __init__(self, client: KazooClient, *, root: str = "/qlgate"):
        self.client = client
        self.root = root
        self.calls_path = f"{root}/calls"
        self.holder = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        client.ensure_path(self.calls_path)
        client.ensure_path(limits_path(self.root))
        self._limits: dict[str, int] = {}
        self._lock = threading.Lock()
        # an expired session fires the watches while it cannot read: read again, and watch
        # again, each time the client is connected anew
        client.add_listener(lambda state: self._changed() if state == KazooState.CONNECTED else None)
        self._reload()

    @property
    def epoch(self) -> object:
        """The session: a new one has none of the old one's ephemeral counts."""
        return self.client.client_id[0] if self.client.client_id else None

    # ------------------------------------------------------------------ limits (cached, watched)
    def _changed(self, _event: object = None) -> None:
        threading.Thread(target=self._reload, daemon=True).start()  # never on kazoo's event thread

    def _reload(self) -> None:
        try:
            limits = {}
            for name in self.client.get_children(limits_path(self.root), watch=self._changed):
                try:
                    limits[name] = int(decode(self.client.get(limit_path(self.root, name), watch=self._changed)[0]))
                except (NoNodeError, TypeError, ValueError):
                    continue
        except Exception:  # noqa: BLE001 — the session is away: keep what we know, the next watch reloads
            return
        with self._lock:
            self._limits = limits

    def limit(self, api: str) -> int | None:
        with self._lock:
            return self._limits.get(api)

    # ------------------------------------------------------------------ units
    def _holders(self, api: str) -> tuple[int, list[tuple[str, int, int]]]:
        """The type node's version, and (holder, units, wanting) of every live session."""
        parent = f"{self.calls_path}/{api}"
        try:
            _, stat = self.client.get(parent)
        except NoNodeError:
            try:
                self.client.create(parent, b"")
            except NodeExistsError:
                pass
            _, stat = self.client.get(parent)
        holders = []
        for name in self.client.get_children(parent):
            try:
                data = decode(self.client.get(f"{parent}/{name}")[0])
            except NoNodeError:
                continue
            holders.append((name, int(data.get("n", 0)), int(data.get("w", 0))))
        return stat.version, holders

    def hold(self, api: str, limit: int, total: int, wanting: int) -> Holding:
        parent = f"{self.calls_path}/{api}"
        node = f"{parent}/{self.holder}"
        while True:
            version, holders = self._holders(api)
            mine = [(n, w) for name, n, w in holders if name == self.holder]
            held_now = mine[0][0] if mine else 0
            others = sum(n for name, n, _ in holders if name != self.holder)
            others_wanting = sum(1 for name, _, w in holders if name != self.holder and w > 0)
            held = settle(held_now, others, limit, total)
            unmet = wanting + total - held  # what it asked for and did not get, too
            if (mine[0] if mine else (0, 0)) == (held, unmet):
                return Holding(held, others_wanting)  # as recorded: nothing to write
            data = encode({"n": held, "w": unmet})
            tx = self.client.transaction()
            if held > held_now:  # more units: only if no one took any since the count was read
                tx.set_data(parent, b"", version=version)
            if mine:
                tx.set_data(node, data)
            else:
                tx.create(node, data, ephemeral=True)
            failure = first_failure(tx.commit())
            if failure is None:
                return Holding(held, others_wanting)
            if not isinstance(failure, (BadVersionError, NodeExistsError, NoNodeError)):
                raise failure
            # another process took units meanwhile (or this session's node came or went): again

    def in_use(self) -> dict[str, int]:
        out = {}
        for api in self.client.get_children(self.calls_path):
            used = sum(n for _, n, _ in self._holders(api)[1])
            if used:
                out[api] = used
        return out
