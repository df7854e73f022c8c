"""The limiter: one master for the cluster, chosen by election, lets queued jobs
through the gate when a slot of each of their types is free and a worker has
room.

Election: each candidate creates an ephemeral sequential node; the lowest is
the master and every other watches the node just below its own, so a death
wakes exactly one standby. The master keeps no state of its own: limits,
slots in use (``limiter/running``), live workers and the queue are all read
from ZooKeeper, so a new master starts from exactly where the old one was.

Grants go in transactions, each of which checks the master's election node (a
master whose session expired cannot grant) and, for every run in it, removes
the queue entry, records a slot for each type, hands the run to a worker and
marks the job running.
Slots are therefore recorded before — in fact atomically with — the run
being let through, and counted as znodes, so the running count cannot drift.

Why no mailbox of messages with a written-ahead "last handled" number: that
pattern protects a master whose state lives in memory and is fed by messages.
Here every fact a decision rests on is a znode and every decision is one
transaction, so there is no message to lose, replay or handle twice; a new
master reads the same znodes and carries on. The master decides from a mirror
of those znodes (``mirror.py``) that watches keep current and that can only
over-count what is in use, so a stale mirror may delay a grant but never
exceed a limit.

Here are the election and the decisions; taking back lost workers' runs, the
one step of the cycle that waits on a worker's lease, is in ``reclaim.py``, and
archiving finished jobs, which reads job records by the hundred and so runs on
a thread of its own that the limiter starts, in ``archiver.py``.
"""

from __future__ import annotations

import logging
import threading
import time
from functools import partial

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import ConnectionClosedError, ConnectionLoss, SessionExpiredError

from ...config_keys import declared_default
from ..archive import Archive
from ..model import QUEUED, RUNNING, Attempt, Job, parse_queue_key
from .archiver import Archiver
from .layout import Layout, decode, encode, first_failure, hand_over, run_name, value_or_none
from .mirror import Mirror
from .reclaim import Reclaim
from .worker import CALL_TIMEOUT_S

log = logging.getLogger("qlgate.jobs.limiter")
SERVER_LAG_S = float(declared_default("jobs.serverLag"))  # ZooKeeper's defaults: syncLimit 5 × tickTime 2 s
RECHECK_S = 0.5  # the longest a due not-before job or a lost worker waits unnoticed
AUDIT_S = 5.0  # how often every slot is checked against live workers


class Limiter(Reclaim):
    def __init__(
        self,
        client: KazooClient,
        *,
        name: str,
        root: str = "/qlgate",
        archive: Archive | None = None,
        keep_finished: float = 3600.0,
        server_lag: float = SERVER_LAG_S,
    ):
        self.client = client
        # jobs.serverLag: how long a ZooKeeper server cut off from its leader may go on answering
        # a worker's probes after the leader stopped hearing of its session (syncLimit × tickTime);
        # a lost worker's lease may outlast its session by that much (lease.py)
        self.server_lag = server_lag
        self.name = name
        self.layout = Layout(root)
        self.layout.ensure(client)
        self.node: str | None = None  # our election node
        self.is_master = threading.Event()
        self.grants = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._entries: dict[str, dict] = {}  # queue entry → its data (types, record, version)
        self._types_queued: set[str] = set()  # every type of those entries (a superset: never shrinks)
        self._listings_learnt = -1  # the queue listing _entries has been brought up to
        self._type_dirs: set[str] = set()
        self._last_audit = 0.0
        self._last_live: frozenset | None = None
        self._gone_since: dict[str, float] = {}  # lost worker with runs → when we saw it gone
        self._grace: dict[str, float] = {}  # lost worker → its per-call deadline
        self._mirror = Mirror(client, self.layout, self.wake)
        self._thread = threading.Thread(target=self._main, name=f"limiter-{name}", daemon=True)
        # archiving reads every job record: on its own thread, so decisions never wait behind it;
        # it archives into ``archive`` the jobs that ended over ``keep_finished`` ago
        self._archiver = Archiver(
            client, self.layout, archive, keep_finished=keep_finished, is_master=self.is_master, name=name
        )
        client.add_listener(self._on_state)

    # ------------------------------------------------------------------ life
    def start(self) -> Limiter:
        self._thread.start()
        if self._archiver.archive is not None:
            self._archiver.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stand down within ``timeout`` seconds whatever ZooKeeper's state: our
        election node goes at once when ZooKeeper answers, so a standby takes over
        without waiting for our session to expire."""
        give_up_at = time.monotonic() + timeout
        self._stop.set()
        self._archiver.stop()
        self._wake.set()
        self._thread.join(max(0.0, give_up_at - time.monotonic()))
        self._archiver.join(max(0.0, give_up_at - time.monotonic()))
        node, self.node = self.node, None
        self.is_master.clear()
        if node is not None:
            try:
                self.client.delete_async(node).get(timeout=max(0.0, give_up_at - time.monotonic()))
            except Exception:  # noqa: BLE001 — the session may already be gone (the node with it), or ZooKeeper away
                pass

    def _on_state(self, state: str) -> None:
        self._mirror.invalidate()  # watches may have been lost with the connection
        if state in (KazooState.SUSPENDED, KazooState.LOST):
            self.is_master.clear()  # not sure any more: stop granting until we know
        if state == KazooState.LOST:
            self.node = None  # the ephemeral node died with the session
        self._wake.set()

    def wake(self, *_: object) -> None:
        self._wake.set()

    def _archive_finished(self, now: float) -> None:
        """One archiving pass at once (the archiver's thread makes one every ``ARCHIVE_EVERY_S``)."""
        self._archiver.archive_finished(now)

    # ------------------------------------------------------------------ loop
    def _main(self) -> None:
        while not self._stop.is_set():
            try:
                if self._elected():
                    self._cycle()
            except (ConnectionLoss, SessionExpiredError, ConnectionClosedError) as error:
                if self.is_master.is_set():  # expected in an outage: one line, no traceback
                    log.warning("limiter %s: %s; not granting until ZooKeeper answers", self.name, type(error).__name__)
                self.is_master.clear()
                self._stop.wait(0.2)
            except Exception:  # keep the limiter alive; the next cycle reads everything afresh
                log.exception("limiter cycle failed")
                time.sleep(0.2)
            self._wake.wait(RECHECK_S)
            self._wake.clear()

    def _elected(self) -> bool:
        if self.client.state != KazooState.CONNECTED:
            return False
        if self.is_master.is_set() and self.node is not None:
            return True  # nobody deletes our node; losing the session clears both (see _on_state)
        if self.node is None or self.client.exists(self.node) is None:
            self.node = self.client.create(
                f"{self.layout.election}/n-", encode({"name": self.name}), ephemeral=True, sequence=True
            )
        mine = self.node.rsplit("/", 1)[1]
        nodes = sorted(self.client.get_children(self.layout.election))
        lower = [n for n in nodes if n < mine]
        if not lower:
            if not self.is_master.is_set():
                self._mirror.invalidate()  # a new master starts from what ZooKeeper holds
                self._gone_since, self._grace = {}, {}  # lost workers are timed from now
                log.info("%s is the limiter master", self.name)
                self.is_master.set()
            return True
        self.is_master.clear()
        # watch only the node just below ours: its death wakes us, no herd
        if self.client.exists(f"{self.layout.election}/{lower[-1]}", watch=self.wake) is None:
            self._wake.set()
        return False

    # ------------------------------------------------------------------ decisions
    def _cycle(self) -> None:
        began = now = time.time()
        mirror = self._mirror
        audit = now - self._last_audit > AUDIT_S
        if audit:
            self._last_audit = now
            mirror.invalidate()  # now and then, everything read afresh
        mirror.refresh()
        live = frozenset(mirror.slots)
        if live != self._last_live or audit or self._gone_since or mirror.reborn:
            # a worker left (or it is time to audit): take its runs back before granting more
            self._last_live = live
            if self._reclaim_lost_runs(live, audit=audit):
                mirror.invalidate()
                mirror.refresh()
        queue = mirror.queue
        if mirror.queue_listings != self._listings_learnt:
            self._listings_learnt = mirror.queue_listings
            self._learn_entries(queue)
        limits, slots_used, workers = mirror.limits, mirror.slots_used(), mirror.free_slots()
        full = {t for t, limit in limits.items() if slots_used.get(t, 0) >= limit}
        plan: list[tuple[str, int, list[str], str]] = []
        for entry in queue:
            if not any(workers.values()) or full >= self._types_queued:
                break  # no room anywhere: the rest of the queue need not be looked at
            types = self._types_of(entry)
            if types is None:
                continue
            blocked = any(t in full for t in types)
            if blocked and full.issuperset(types):
                continue
            _priority, due, job_id = parse_queue_key(entry)
            if due > now:
                continue
            if blocked:
                # the job waits for a full type; its other types wait behind it:
                # within a type, jobs start in queue order
                full.update(types)
                continue
            worker = max(workers, key=workers.__getitem__)
            plan.append((entry, job_id, types, worker))
            workers[worker] -= 1
            for t in types:
                slots_used[t] = slots_used.get(t, 0) + 1
                if t in limits and slots_used[t] >= limits[t]:
                    full.add(t)
        if plan:
            self._grant(plan)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("cycle: %d queued, %d granted in %.1f ms", len(queue), len(plan), (time.time() - began) * 1000)

    def _learn_entries(self, queue: list[str]) -> None:
        """Queue entries not seen before, read in one pipelined batch; entries no
        longer queued (cancelled) are forgotten once they pile up."""
        if len(self._entries) > 2 * len(queue) + 1000:
            listed = set(queue)
            self._entries = {e: d for e, d in self._entries.items() if e in listed}
            self._types_queued = {t for d in self._entries.values() for t in d["types"]}
        pending = [(e, self.client.get_async(f"{self.layout.queue}/{e}")) for e in queue if e not in self._entries]
        for entry, result in pending:
            value = value_or_none(result)
            if value is not None:
                self._entries[entry] = data = decode(value[0])
                self._types_queued.update(data["types"])

    def _types_of(self, entry: str) -> list[str] | None:
        data = self._entries.get(entry)
        return None if data is None else data["types"]

    def _grant(self, plan: list[tuple[str, int, list[str], str]]) -> None:
        """Let the planned runs through: one transaction per batch of runs, all
        pipelined. A transaction per run had the master's connection and the
        server queueing a burst of small writes; a batch is one request, and each
        worker gets one news for its runs in it."""
        lay, c = self.layout, self.client
        for _, _, types, _ in plan:
            for t in types:
                if t not in self._type_dirs:
                    c.ensure_path(lay.running(t))
                    self._type_dirs.add(t)
        batch = _Batch()
        for entry, _, types, worker in plan:
            # every entry carries the job's record as of the version its enqueue left (layout.enqueue)
            job, version = Job.from_dict(self._entries[entry]["job"]), self._entries[entry]["version"]
            if job.state != QUEUED:
                continue
            job.run += 1
            job.state = RUNNING
            job.started = time.time()
            job.attempts.append(Attempt(run=job.run, worker=worker, started=job.started))
            name = run_name(job.id, job.run)
            record = job.to_dict()
            encoded = encode(record)
            # the run carries the record (and the version our write gives it): the worker starts at once
            batch.add(
                entry,
                job.id,
                name,
                types,
                worker,
                encoded,
                {
                    "id": job.id,
                    "run": job.run,
                    "types": types,
                    "job": record,
                    "version": version + 1,
                    "callTimeout": self._mirror.call_timeouts.get(worker, CALL_TIMEOUT_S),
                    # the worker's incarnation: one back under its name on a new session never
                    # starts it, and we take it back as lost
                    "session": self._mirror.sessions.get(worker),
                },
                version,
            )
            # counted at once, not when the commit returns: ZooKeeper applies one session's requests
            # in the order sent, so every read this master sends next already sees the grant (or
            # its failure, which makes us read everything again) — the master never waits on a commit
            self._mirror.granted(entry, name, types, worker)
            self._entries.pop(entry, None)
            if batch.full():
                self._send(batch)
                batch = _Batch()
        if batch.runs:
            self._send(batch)

    def _send(self, batch: _Batch) -> None:
        lay = self.layout
        tx = self.client.transaction()
        tx.check(self.node, 0)  # still the master (our session lives)
        for entry, job_id, name, types, worker, record, version in batch.runs:
            tx.delete(f"{lay.queue}/{entry}")
            for t in types:
                tx.create(f"{lay.running(t)}/{name}", encode({"worker": worker}))
            tx.set_data(lay.job(job_id), record, version=version)
        for worker, runs in batch.by_worker.items():
            hand_over(tx, lay, worker, runs)
        tx.commit_async().rawlink(partial(self._granted, [run[1] for run in batch.runs]))

    def _granted(self, job_ids: list[int], result) -> None:
        """A batch's outcome, on kazoo's callback thread."""
        try:
            failure = first_failure(result.get())
        except Exception as error:  # noqa: BLE001 — the connection or the session went meanwhile
            failure = error
        if failure is None:
            self.grants += len(job_ids)
            return
        log.info("grant of jobs %s did not go through (%s); reading again", job_ids, type(failure).__name__)
        self._mirror.invalidate()
        self._wake.set()


GRANT_BATCH_RUNS = 64  # runs let through in one transaction at most
GRANT_BATCH_BYTES = 256_000  # and about this much data (ZooKeeper takes requests up to 1 MB)


class _Batch:
    """Grants that go in one transaction: all of them or none (a failure — a job
    cancelled meanwhile, say — has the master read everything again and plan anew)."""

    def __init__(self) -> None:
        self.runs: list[tuple] = []
        self.by_worker: dict[str, dict[str, dict]] = {}
        self.size = 0

    def add(
        self, entry: str, job_id: int, name: str, types: list[str], worker: str, record: bytes, info: dict, version: int
    ) -> None:
        self.runs.append((entry, job_id, name, types, worker, record, version))
        self.by_worker.setdefault(worker, {})[name] = info
        self.size += 3 * len(record) + 200  # the record goes in the job, the assignment and the news

    def full(self) -> bool:
        return len(self.runs) >= GRANT_BATCH_RUNS or self.size >= GRANT_BATCH_BYTES
