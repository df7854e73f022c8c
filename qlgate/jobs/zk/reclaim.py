"""Taking back the runs of workers that were lost: a worker whose session ended,
or one back under its name on a new session, holds runs nobody will finish;
they go back to the queue (or fail after their last attempt) — but only once
the worker's lease has certainly ended (``lease.py``), since until then a call
it sent may still reach the partner API. Kept apart from the election and the
decisions (``limiter.py``) because it is the master's one careful wait: the
grace each lost worker gets, and the periodic audit of slots against live
workers. A mixin of ``Limiter``: it runs inside the master's cycle, between
reading the mirror and granting.
"""

from __future__ import annotations

import logging
import threading
import time

from kazoo.client import KazooClient
from kazoo.exceptions import BadVersionError, NodeExistsError, NoNodeError

from ..model import QUEUED, RUNNING, Job, finish_attempt, queue_place
from .layout import (
    Layout,
    commit,
    decode,
    encode,
    enqueue,
    forget_bucket,
    free_slots,
    mark_finished,
    parse_run_name,
    value_or_none,
)
from .mirror import Mirror
from .worker import CALL_TIMEOUT_S

log = logging.getLogger("qlgate.jobs.limiter")


class Reclaim:
    """The ``Limiter``'s taking back of lost workers' runs (see the module's
    docstring); the limiter sets every attribute below."""

    client: KazooClient
    layout: Layout
    node: str | None
    server_lag: float
    _mirror: Mirror
    _wake: threading.Event
    _gone_since: dict[str, float]
    _grace: dict[str, float]

    def _reclaim_lost_runs(self, live: frozenset, audit: bool) -> bool:
        """Runs held by workers whose session has ended go back to the queue (or fail
        after their last attempt) — once the worker's lease has certainly ended: its
        session is gone, and its per-call deadline has passed since we saw it go, so
        a call it sent just before it froze has finished or been abandoned
        (``lease.py``). Until then the runs keep their slots. A live worker is never
        second-guessed, however slow. True when something was taken back."""
        lay = self.layout
        reclaimed = False
        now = time.monotonic()
        waiting: dict[str, float] = {}
        reborn, self._mirror.reborn = self._mirror.reborn, set()
        for worker in self.client.get_children(lay.assign_root):
            if worker in live:
                # back under its name on a new session (it froze, or lost ZooKeeper): the runs
                # handed to its old session are lost like a dead worker's
                key = f"{worker}#old-sessions"
                self._grace.pop(worker, None)
                if audit or worker in reborn or key in self._gone_since:
                    reclaimed |= self._reclaim_old_sessions(worker, key, now, waiting)
                continue
            # first seen gone now, or when we became master: its session ended no later than that
            since = self._gone_since.get(worker, now)
            names = self.client.get_children(lay.assignments(worker))
            if names:
                grace = self._call_timeout_of(worker, names) + self.server_lag
                if now < since + grace:
                    waiting[worker] = since
                    continue
            for name in names:
                self.release(worker, name, error=f"worker {worker} was lost (its session ended)")
                reclaimed = True
            for path in (lay.assignments(worker), lay.cancels(worker)):
                try:
                    self.client.delete(path)
                except Exception:  # noqa: BLE001 — gone already, or ZooKeeper away: the next audit tries again
                    pass
        self._gone_since = waiting
        if not audit:
            return reclaimed
        # now and then: slots whose run has no assignment (our transactions never leave
        # one behind; audited anyway so that a count can never drift)
        for job_type in self.client.get_children(lay.running_root):
            for name in self.client.get_children(lay.running(job_type)):
                try:
                    holder = decode(self.client.get(f"{lay.running(job_type)}/{name}")[0])["worker"]
                except NoNodeError:
                    continue
                if holder not in live and self.client.exists(f"{lay.assignments(holder)}/{name}") is None:
                    try:
                        self.client.delete(f"{lay.running(job_type)}/{name}")
                        reclaimed = True
                    except NoNodeError:
                        pass
        return reclaimed

    def _reclaim_old_sessions(self, worker: str, key: str, now: float, waiting: dict[str, float]) -> bool:
        """A live worker's runs handed to an earlier session of its: taken back once that
        session's lease has certainly ended (as for a lost worker)."""
        current = self._mirror.sessions.get(worker)
        path = self.layout.assignments(worker)
        names = self.client.get_children(path)
        reads = [(n, self.client.get_async(f"{path}/{n}")) for n in names]
        stale: list[tuple[str, float]] = []
        for name, result in reads:
            value = value_or_none(result)
            if value is None:
                continue
            info = decode(value[0])
            if info.get("session") not in (None, current):
                stale.append((name, float(info.get("callTimeout", CALL_TIMEOUT_S))))
        if not stale:
            return False
        since = self._gone_since.get(key, now)
        if now < since + max(grace for _, grace in stale) + self.server_lag:
            waiting[key] = since
            return False
        for name, _ in stale:
            self.release(worker, name, error=f"worker {worker} was lost (its session ended; it came back on a new one)")
        return True

    def _call_timeout_of(self, worker: str, names: list[str]) -> float:
        """The longest per-call deadline among a lost worker's runs (each assignment
        carries its worker's ``jobs.callTimeout``; the default for older ones)."""
        known = self._grace.get(worker)
        if known is not None:
            return known
        reads = [self.client.get_async(f"{self.layout.assignments(worker)}/{n}") for n in names]
        grace = 0.0
        for result in reads:
            value = value_or_none(result)
            info = decode(value[0]) if value is not None else {}
            grace = max(grace, float(info.get("callTimeout", CALL_TIMEOUT_S)))
        self._grace[worker] = grace
        return grace

    def release(self, worker: str, name: str, *, error: str) -> None:
        lay = self.layout
        job_id, run = parse_run_name(name)
        try:
            info = decode(self.client.get(f"{lay.assignments(worker)}/{name}")[0])
            data, stat = self.client.get(lay.job(job_id))
        except NoNodeError:
            return
        job = Job.from_dict(decode(data))
        tx = self.client.transaction()
        tx.check(self.node, 0)
        tx.delete(f"{lay.assignments(worker)}/{name}")
        free_slots(tx, lay, name, info["types"])
        if job.state == RUNNING and job.run == run:
            finish_attempt(job, error, cancelled=job.cancel_requested)  # a cancel asked for stands
            record = job.to_dict()
            if job.state == QUEUED:  # taken back, not failed: it keeps its place in the queue
                enqueue(tx, lay, record, stat.version + 1, queue_place(job))
            else:
                assert job.ended is not None  # every final state sets it
                mark_finished(self.client, tx, lay, job_id, job.ended)
            tx.set_data(lay.job(job_id), encode(record), version=stat.version)
        try:
            commit(tx)
            log.warning("job %s run %s: %s", job_id, run, error)
        except (BadVersionError, NoNodeError, NodeExistsError) as failure:
            if isinstance(failure, NoNodeError) and job.final and job.ended is not None:
                forget_bucket(self.client, lay, job.ended)  # the next audit tries again
            self._wake.set()
