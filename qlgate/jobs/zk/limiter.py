"""The limiter: one master for the cluster, chosen by election, lets queued jobs
through the gate when a slot of each of their types is free and a worker has
room.

Election: each candidate creates an ephemeral sequential node; the lowest is
the master and every other watches the node just below its own, so a death
wakes exactly one standby. The master keeps no state of its own: limits,
slots in use (``limiter/running``), live workers and the queue are all read
from ZooKeeper, so a new master starts from exactly where the old one was.

Every grant is one transaction that checks the master's election node (a
master whose session expired cannot grant), removes the queue entry, records
a slot for each type, hands the run to a worker and marks the job running.
Slots are therefore recorded before — in fact atomically with — the run
being let through, and counted as znodes, so the running count cannot drift.

Why no mailbox of messages with a written-ahead "last handled" number: that
pattern protects a master whose state lives in memory and is fed by messages.
Here every fact a decision rests on is a znode and every decision is one
transaction, so there is no message to lose, replay or handle twice; a new
master reads the same znodes and carries on. Watches only wake the master;
what it acts on is always re-read.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import (BadVersionError, ConnectionClosedError, ConnectionLoss, NoNodeError,
                              NodeExistsError, SessionExpiredError)

from ..archive import Archive
from ..model import QUEUED, RUNNING, Attempt, Job, finish_attempt, parse_queue_key, queue_key
from .layout import Layout, commit, decode, encode, first_failure, parse_run_name, queue_entry, run_name

log = logging.getLogger("qlgate.jobs.limiter")
RECHECK_S = 0.5          # the longest a due not-before job or a lost worker waits unnoticed
AUDIT_S = 5.0            # how often every slot is checked against live workers
ARCHIVE_EVERY_S = 10.0   # how often finished jobs are looked at for archiving


@dataclass
class _View:
    """One consistent-enough read of what the decision needs."""
    limits: dict[str, int] = field(default_factory=dict)
    slots_used: dict[str, int] = field(default_factory=dict)
    workers: dict[str, int] = field(default_factory=dict)          # live worker → free slots
    live: list[str] = field(default_factory=list)
    queue: list[str] = field(default_factory=list)


class Limiter:
    def __init__(self, client: KazooClient, *, name: str, root: str = "/qlgate", archive: Archive | None = None,
                 keep_finished: float = 3600.0):
        self.client = client
        self.archive = archive                  # where finished jobs go once ``keep_finished`` has passed
        self.keep_finished = keep_finished
        self._last_archive = 0.0
        self.name = name
        self.layout = Layout(root)
        self.layout.ensure(client)
        self.node: str | None = None           # our election node
        self.is_master = threading.Event()
        self.became_master_at: float | None = None
        self.grants = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._entries: dict[str, dict] = {}           # queue entry → its data (types, record, version)
        self._type_dirs: set[str] = set()
        self._last_audit = 0.0
        self._last_live: frozenset | None = None
        self._thread = threading.Thread(target=self._main, name=f"limiter-{name}", daemon=True)
        client.add_listener(self._on_state)

    # ------------------------------------------------------------------ life
    def start(self) -> "Limiter":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(10)
        node, self.node = self.node, None
        self.is_master.clear()
        if node is not None:
            try:
                self.client.delete(node)
            except Exception:  # the session may already be gone: the node with it
                pass

    def _on_state(self, state: str) -> None:
        if state in (KazooState.SUSPENDED, KazooState.LOST):
            self.is_master.clear()       # not sure any more: stop granting until we know
        if state == KazooState.LOST:
            self.node = None             # the ephemeral node died with the session
        self._wake.set()

    def wake(self, *_: object) -> None:
        self._wake.set()

    # ------------------------------------------------------------------ loop
    def _main(self) -> None:
        while not self._stop.is_set():
            try:
                if self._elected():
                    self._cycle()
            except (ConnectionLoss, SessionExpiredError, ConnectionClosedError):
                self.is_master.clear()
                time.sleep(0.2)
            except Exception:  # keep the limiter alive; the next cycle reads everything afresh
                log.exception("limiter cycle failed")
                time.sleep(0.2)
            self._wake.wait(RECHECK_S)
            self._wake.clear()

    def _elected(self) -> bool:
        if self.client.state != KazooState.CONNECTED:
            return False
        if self.is_master.is_set() and self.node is not None:
            return True      # nobody deletes our node; losing the session clears both (see _on_state)
        if self.node is None or self.client.exists(self.node) is None:
            self.node = self.client.create(f"{self.layout.election}/n-", encode({"name": self.name}),
                                           ephemeral=True, sequence=True)
        mine = self.node.rsplit("/", 1)[1]
        nodes = sorted(self.client.get_children(self.layout.election))
        lower = [n for n in nodes if n < mine]
        if not lower:
            if not self.is_master.is_set():
                self.became_master_at = time.time()
                log.info("%s is the limiter master", self.name)
                self.is_master.set()
            return True
        self.is_master.clear()
        # watch only the node just below ours: its death wakes us, no herd
        if self.client.exists(f"{self.layout.election}/{lower[-1]}", watch=self.wake) is None:
            self._wake.set()
        return False

    # ------------------------------------------------------------------ decisions
    def _read(self) -> _View:
        """Everything a decision needs, read with pipelined requests (a cycle costs a
        few round trips, not one per node), each with a watch that wakes us on change."""
        c, lay, view = self.client, self.layout, _View()
        limit_names = c.get_children_async(lay.limits, watch=self.wake)
        type_names = c.get_children_async(lay.running_root, watch=self.wake)
        live = c.get_children_async(lay.workers, watch=self.wake)
        queue = c.get_children_async(lay.queue, watch=self.wake)
        limits = [(t, c.get_async(lay.limit(t), watch=self.wake)) for t in limit_names.get()]
        used = [(t, c.get_children_async(lay.running(t), watch=self.wake)) for t in type_names.get()]
        view.live = live.get()
        workers = [(w, c.get_async(lay.worker(w)), c.get_children_async(lay.assignments(w), watch=self.wake))
                   for w in view.live]
        for job_type, result in limits:
            value = _value_or_none(result)
            if value is not None:
                view.limits[job_type] = decode(value[0])
        for job_type, result in used:
            value = _value_or_none(result)
            view.slots_used[job_type] = len(value) if value is not None else 0
        for worker, info, assigned in workers:
            info, assigned = _value_or_none(info), _value_or_none(assigned)
            if info is None:
                continue
            if assigned is None:
                c.ensure_path(lay.assignments(worker))
                assigned = []
            view.workers[worker] = max(0, int(decode(info[0]).get("slots", 1)) - len(assigned))
        view.queue = sorted(queue.get())
        return view

    def _cycle(self) -> None:
        began = now = time.time()
        view = self._read()
        live = frozenset(view.live)
        audit = now - self._last_audit > AUDIT_S
        if live != self._last_live or audit:
            # a worker left (or it is time to audit): take its runs back before granting more
            self._last_live = live
            if audit:
                self._last_audit = now
            if self._reclaim_lost_runs(live, audit=audit):
                view = self._read()
        self._learn_entries([e for e in view.queue if e not in self._entries])
        blocked_types: set[str] = set()
        plan: list[tuple[str, int, list[str], str]] = []
        for entry in view.queue:
            if not any(view.workers.values()):
                break
            priority, due, job_id = parse_queue_key(entry)
            if due > now:
                continue
            types = self._types_of(entry)
            if types is None:
                continue
            # a type that could not take the job ahead of this one cannot take this one either:
            # within a type, jobs start in queue order
            if any(t in blocked_types for t in types):
                continue
            if any(t in view.limits and view.slots_used.get(t, 0) >= view.limits[t] for t in types):
                blocked_types.update(types)
                continue
            worker = max(view.workers, key=lambda w: view.workers[w])
            plan.append((entry, job_id, types, worker))
            view.workers[worker] -= 1
            for t in types:
                view.slots_used[t] = view.slots_used.get(t, 0) + 1
        if plan:
            self._grant(plan)
        if self.archive is not None and now - self._last_archive > min(ARCHIVE_EVERY_S, self.keep_finished):
            self._last_archive = now
            self._archive_finished(now)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("cycle: %d queued, %d granted in %.1f ms", len(view.queue), len(plan),
                      (time.time() - began) * 1000)

    def _learn_entries(self, entries: list[str]) -> None:
        """Queue entries not seen before, read in one pipelined batch."""
        if len(self._entries) + len(entries) > 200_000:
            self._entries.clear()
        pending = [(e, self.client.get_async(f"{self.layout.queue}/{e}")) for e in entries]
        for entry, result in pending:
            value = _value_or_none(result)
            if value is not None:
                self._entries[entry] = decode(value[0])

    def _types_of(self, entry: str) -> list[str] | None:
        data = self._entries.get(entry)
        return None if data is None else data["types"]

    def _grant(self, plan: list[tuple[str, int, list[str], str]]) -> None:
        """Let the planned runs through, each in one transaction, all pipelined."""
        lay, c = self.layout, self.client
        for _, _, types, _ in plan:
            for t in types:
                if t not in self._type_dirs:
                    c.ensure_path(lay.running(t))
                    self._type_dirs.add(t)
        # entries written by older versions carry no record: read those jobs
        reads = {item[1]: c.get_async(lay.job(item[1])) for item in plan if "job" not in self._entries[item[0]]}
        commits = []
        for entry, job_id, types, worker in plan:
            if job_id in reads:
                value = _value_or_none(reads[job_id])
                if value is None:
                    continue
                record, version = decode(value[0]), value[1].version
            else:
                record, version = self._entries[entry]["job"], self._entries[entry]["version"]
            job = Job.from_dict(record)
            if job.state != QUEUED:
                continue
            job.run += 1
            job.state = RUNNING
            job.started = time.time()
            job.attempts.append(Attempt(run=job.run, worker=worker, started=job.started))
            name = run_name(job.id, job.run)
            record = job.to_dict()
            tx = c.transaction()
            tx.check(self.node, 0)                              # still the master (our session lives)
            tx.delete(f"{lay.queue}/{entry}")
            for t in types:
                tx.create(f"{lay.running(t)}/{name}", encode({"worker": worker}))
            # the run carries the record (and the version our write gives it): the worker starts at once
            tx.create(f"{lay.assignments(worker)}/{name}",
                      encode({"id": job.id, "run": job.run, "types": types, "job": record, "version": version + 1}))
            tx.set_data(lay.job(job.id), encode(record), version=version)
            commits.append((entry, job.id, tx.commit_async()))
        for entry, job_id, pending in commits:
            try:
                results = pending.get()
            except (ConnectionLoss, SessionExpiredError):
                raise
            failure = first_failure(results)
            self._entries.pop(entry, None)     # granted, or stale: read afresh if it is still queued
            if failure is not None:
                log.info("grant of job %s lost a race (%s); reading again", job_id, type(failure).__name__)
                self._wake.set()
                continue
            self.grants += 1

    def _reclaim_lost_runs(self, live: frozenset, audit: bool) -> bool:
        """Runs held by workers whose session has ended go back to the queue (or fail
        after their last attempt). A live worker is never second-guessed, however slow.
        True when something was taken back."""
        lay = self.layout
        reclaimed = False
        for worker in self.client.get_children(lay.assign_root):
            if worker in live:
                continue
            for name in self.client.get_children(lay.assignments(worker)):
                self.release(worker, name, error=f"worker {worker} was lost (its session ended)")
                reclaimed = True
            try:
                self.client.delete(lay.assignments(worker))
            except Exception:
                pass
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

    def _archive_finished(self, now: float) -> None:
        """Jobs that ended over ``keep_finished`` ago: into the archive, then out of ZooKeeper.
        Archived before deleted, so a master dying in between only archives one twice."""
        lay, c = self.layout, self.client
        names = c.get_children(lay.jobs)
        pending = [(n, c.get_async(lay.job(int(n)))) for n in names]
        old: list[tuple[Job, int]] = []
        for name, result in pending:
            value = _value_or_none(result)
            if value is None:
                continue
            job = Job.from_dict(decode(value[0]))
            if job.final and job.ended is not None and now - job.ended >= self.keep_finished:
                old.append((job, value[1].version))
        if not old:
            return
        self.archive.add(job for job, _ in old)
        deletes = [c.delete_async(lay.job(job.id), version=version) for job, version in old]
        for result in deletes:
            try:
                result.get()
            except (NoNodeError, BadVersionError):
                pass
        log.info("archived %d finished job(s)", len(old))

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
        for t in info["types"]:
            tx.delete(f"{lay.running(t)}/{name}")
        if job.state == RUNNING and job.run == run:
            finish_attempt(job, error)
            record = job.to_dict()
            if job.state == QUEUED:
                tx.create(f"{lay.queue}/{queue_key(job.priority, time.time(), job.id)}",
                          queue_entry(record, stat.version + 1))
            tx.set_data(lay.job(job_id), encode(record), version=stat.version)
        try:
            commit(tx)
            log.warning("job %s run %s: %s", job_id, run, error)
        except (BadVersionError, NoNodeError, NodeExistsError):
            self._wake.set()


def _value_or_none(result):
    """The value of an async read, or None when the node has gone meanwhile."""
    try:
        return result.get()
    except NoNodeError:
        return None
