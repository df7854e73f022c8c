"""The embedded job backend: the gateway runs jobs in-process, with the same
API and guarantees as the ZooKeeper backend on one host, persisted in SQLite.

A run is written down as running (its slot taken) before it starts, and its
outcome in the same transaction that frees the slot. After a restart, runs
that were in flight count as interrupted attempts and go back to the queue,
so nothing accepted is ever lost.

The file's schema, and the reads and writes of job records every part here
shares, are ``LocalStore``'s (``local_store.py``).
"""

from __future__ import annotations

import asyncio
import builtins
import logging
import os
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

from ..limits.api_types import check_type
from ..limits.rate import Rate
from .local_store import LocalStore
from .model import (
    CANCELLED,
    DONE,
    KEY_KEEP_S,
    MAX_RUN_SECONDS,
    QUEUED,
    RUNNING,
    STATES,
    Attempt,
    Job,
    JobError,
    JobNotFound,
    QueueFull,
    RecordError,
    attempt_error,
    check_idempotency_key,
    check_job_id,
    check_limit,
    finish_attempt,
    key_digest,
    new_job,
    oversized_result,
)
from .runner import run_with_deadline
from .sqlite import job_filter
from .zk.worker import JobRunner

WORKER_NAME = "embedded"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


log = logging.getLogger("qlgate.jobs.local")


class LocalJobs(LocalStore):
    def __init__(
        self,
        path: str | Path,
        runner: JobRunner | None = None,
        *,
        slots: int = 4,
        max_queue: int = 100_000,
        poll_interval: float = 0.25,
        max_run_seconds: float = MAX_RUN_SECONDS,
    ):
        super().__init__(path)  # the database, its lock and the condition waiters sleep on
        self.runner = runner
        self.slots = slots
        self.max_queue = max_queue
        self.max_run_seconds = max_run_seconds  # config jobs.maxRunSeconds: no run takes longer
        self.poll_interval = poll_interval  # other processes (gateway workers) submit and cancel too
        self._tasks: dict[int, asyncio.Task] = {}  # job id → its run (bookkeeping included)
        self._scripts: dict[int, asyncio.Future] = {}  # job id → the script, the part a cancel stops
        self._in_use: Counter[str] = Counter()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self.started_at: float | None = None

    # ------------------------------------------------------------------ life
    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> LocalJobs:
        """Begin running jobs on ``loop`` (the running loop by default); runs cut
        short by the last stop are attempts that failed and go back to the queue."""
        self._loop = loop or asyncio.get_running_loop()
        self.started_at = time.time()
        with self._transaction():
            # the other gateway processes of the host answer for the runner from this row
            self._db.execute(
                "insert into runner values (1, ?, ?, ?) on conflict(id) do update set pid = excluded.pid, "
                "started = excluded.started, slots = excluded.slots",
                (os.getpid(), self.started_at, self.slots),
            )
            for job in self._select("where state = ?", (RUNNING,)):
                finish_attempt(job, "interrupted: the gateway stopped during the run")
                self._save(job)
        self._kick()
        return self

    async def stop(self) -> None:
        """Stop starting runs; cancel the ones in flight (they are re-run after a restart)."""
        self._loop = None
        if self._timer is not None:
            self._timer.cancel()
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ the API
    def submit(
        self,
        script: str,
        *,
        types: Iterable[str],
        vars: dict[str, Any] | None = None,
        priority: int = 0,
        not_before: float = 0.0,
        max_attempts: int = 3,
        max_seconds: float | None = None,
        trust: str = "deployer",
        owner: str | None = None,
        policy: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> int:
        """Queue a job; its id. With ``idempotency_key``, a second submission under the
        same key and owner answers the first one's id (keys last ``KEY_KEEP_S``)."""
        key = check_idempotency_key(idempotency_key)
        job = new_job(
            0,
            script,
            types=types,
            vars=vars,
            priority=priority,
            not_before=not_before,
            max_attempts=max_attempts,
            max_seconds=max_seconds,
            max_run_seconds=self.max_run_seconds,
            trust=trust,
            owner=owner,
            policy=policy,
        )
        digest = key_digest(owner, key) if key is not None else None
        # one transaction: other gateway processes never see a row without its record,
        # and the queue's bound holds across them
        with self._transaction():
            if digest is not None:
                self._db.execute("delete from idempotency_keys where at < ?", (time.time() - KEY_KEEP_S,))
                row = self._db.execute("select job_id from idempotency_keys where digest = ?", (digest,)).fetchone()
                if row is not None:
                    return row[0]
            (queued,) = self._db.execute("select count(*) from jobs where state = ?", (QUEUED,)).fetchone()
            if queued >= self.max_queue:
                raise QueueFull(f"the queue holds {queued} jobs, its limit", retry_after=1.0)
            cursor = self._db.execute(
                "insert into jobs (state, priority, due, record) values (?, ?, ?, '{}')",
                (QUEUED, job.priority, max(job.submitted, job.not_before)),
            )
            job.id = cast(int, cursor.lastrowid)  # an insert's row: never None
            self._save(job)
            if digest is not None:
                self._db.execute("insert into idempotency_keys values (?, ?, ?)", (digest, job.id, time.time()))
        self._kick()
        return job.id

    def load_result(self, job: Job) -> Any:
        """A done job's result (the embedded backend keeps it in the record)."""
        return job.result

    def stored_result(self, job: Job) -> bytes | None:
        return None

    def get(self, job_id: int) -> Job:
        with self._lock:
            jobs = self._select("where id = ?", (check_job_id(job_id),))
        if not jobs:
            raise JobNotFound(f"no job {job_id}")
        return jobs[0]

    def list(self, state: str | None = None, limit: int = 1000, *, owner: str | None = None) -> builtins.list[Job]:
        """Jobs newest first; ``owner``: only those the key of that name submitted."""
        if state is not None and state not in STATES:
            raise JobError(f"unknown state '{state}'; one of {', '.join(STATES)}")
        clause, params = job_filter(state, owner)
        with self._lock:
            return self._select(f"{clause} order by id desc limit ?", (*params, limit))

    def wait(self, job_ids: Iterable[int], timeout: float | None = None) -> builtins.list[Job]:
        deadline = None if timeout is None else time.monotonic() + timeout
        out = []
        with self._changed:
            for job_id in job_ids:
                while not (job := self.get(job_id)).final:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        raise TimeoutError(f"job {job_id} is still {job.state} after {timeout} s")
                    self._changed.wait(self.poll_interval if left is None else min(left, self.poll_interval))
                out.append(job)
        return out

    def cancel(self, job_id: int) -> Job:
        with self._transaction():
            job = self.get(job_id)
            if job.state == QUEUED:
                job.state, job.ended = CANCELLED, time.time()
                self._save(job)
            elif job.state == RUNNING:
                job.cancel_requested = True
                self._save(job)
                if self._loop is not None:
                    self._loop.call_soon_threadsafe(self._cancel_run, job.id)
        return job

    def set_limit(self, job_type: str, limit: int | None) -> None:
        check_type(job_type)
        with self._lock:
            if limit is None:
                self._db.execute("delete from limits where type = ?", (job_type,))
            else:
                check_limit(limit)
                self._db.execute(
                    "insert into limits values (?, ?) on conflict(type) do update set value = ?",
                    (job_type, limit, limit),
                )
        self._kick()

    def set_rate(self, job_type: str, rate: Rate | None) -> None:
        check_type(job_type)
        with self._lock:
            if rate is None:
                self._db.execute("delete from rates where type = ?", (job_type,))
            else:
                self._db.execute(
                    "insert into rates (type, calls, per, time_zone) values (?, ?, ?, ?) "
                    "on conflict(type) do update set calls = excluded.calls, per = excluded.per, "
                    "time_zone = excluded.time_zone",
                    (job_type, rate.calls, rate.per, rate.time_zone),
                )

    def rates(self) -> dict[str, Rate]:
        """The rates set, as every process of the host spends them (``qlgate/limits``)."""
        with self._lock:
            rows = self._db.execute("select type, calls, per, time_zone from rates order by type").fetchall()
        return {job_type: Rate(calls, per, zone) for job_type, calls, per, zone in rows}

    def limits(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            out = {t: {"limit": v, "running": 0, "waiting": 0} for t, v in self._db.execute("select * from limits")}
            for job in self._select("where state in (?, ?)", (QUEUED, RUNNING)):
                for t in job.types:
                    entry = out.setdefault(t, {"limit": None, "running": 0, "waiting": 0})
                    entry["running" if job.state == RUNNING else "waiting"] += 1
        return dict(sorted(out.items()))

    def workers(self) -> dict[str, dict[str, Any]]:
        if self._loop is not None:
            return {WORKER_NAME: {"slots": self.slots, "busy": len(self._tasks), "started": self.started_at}}
        runner = self._runner()  # another gateway process of the host runs the jobs
        if runner is None:
            return {}
        with self._lock:
            (busy,) = self._db.execute("select count(*) from jobs where state = ?", (RUNNING,)).fetchone()
        return {WORKER_NAME: {"slots": runner[1], "busy": busy, "started": runner[0]}}

    def master(self) -> str | None:
        return WORKER_NAME if self._loop is not None or self._runner() is not None else None

    def _runner(self) -> tuple[float, int] | None:
        """(started, slots) of the live process of the host that runs the jobs, if any."""
        with self._lock:
            row = self._db.execute("select pid, started, slots from runner").fetchone()
        if row is None or not _alive(row[0]):
            return None
        return row[1], row[2]

    def running_runs(self) -> builtins.list[tuple[str, int, int]]:
        with self._lock:
            return [(t, job.id, job.run) for job in self._select("where state = ?", (RUNNING,)) for t in job.types]

    # ------------------------------------------------------------------ scheduling
    def _kick(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._schedule)

    def _schedule(self) -> None:
        """On the loop: start every due job, best first, whose types all have a free slot."""
        if self._loop is None or self.runner is None:
            return
        now = time.time()
        with self._transaction():
            limits = dict(self._db.execute("select * from limits").fetchall())
            blocked: set[str] = set()
            for job in self._select("where state = ? and due <= ? order by priority desc, due, id", (QUEUED, now)):
                if len(self._tasks) >= self.slots:
                    break
                if any(t in blocked for t in job.types):
                    continue
                if any(t in limits and self._in_use[t] >= limits[t] for t in job.types):
                    blocked.update(job.types)
                    continue
                job.run += 1
                job.state, job.started = RUNNING, time.time()
                job.attempts.append(Attempt(run=job.run, worker=WORKER_NAME, started=job.started))
                self._save(job)  # the slot is written down before the run starts
                self._in_use.update(job.types)
                self._tasks[job.id] = self._loop.create_task(self._run(job))
            self._arm_timer(now)

    def _arm_timer(self, now: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        row = self._db.execute("select min(due) from jobs where state = ? and due > ?", (QUEUED, now)).fetchone()
        if self._loop is not None:
            delay = self.poll_interval if row[0] is None else min(self.poll_interval, row[0] - time.time() + 0.001)
            self._timer = self._loop.call_later(max(0.0, delay), self._schedule)
        self._cancel_requested_runs()

    def _cancel_requested_runs(self) -> None:
        """Cancel requests written by another process reach the run here."""
        if not self._scripts:
            return
        marks = ",".join("?" * len(self._scripts))
        for job in self._select(f"where state = ? and id in ({marks})", (RUNNING, *self._scripts)):
            if job.cancel_requested:
                self._cancel_run(job.id)

    async def _run(self, job: Job) -> None:
        error: str | None = None
        result: Any = None
        cancelled = False
        script_started = time.time()
        script = self._scripts[job.id] = asyncio.ensure_future(
            run_with_deadline(cast(JobRunner, self.runner), job, self.max_run_seconds)
        )  # set: _schedule starts none without
        if self.get(job.id).cancel_requested:  # asked for before the run got going
            script.cancel()
        try:
            result = await script
        except asyncio.CancelledError:
            if self._loop is None:  # stopping: leave it running on record, re-run after restart
                self._in_use.subtract(job.types)
                self._tasks.pop(job.id, None)
                self._scripts.pop(job.id, None)
                raise
            cancelled, error = True, "cancelled while running"
        except Exception as e:  # noqa: BLE001 — the job's failure, recorded on its attempt
            error = attempt_error(e)
        timing = (script_started, time.time())
        try:
            try:
                self._record(job.id, result, error, cancelled, timing)
            except Exception as failure:
                # the slot must not stay taken for good: the attempt fails instead, and the job
                # is retried or ends failed like after any other failure
                log.exception("job %s run %s: its outcome could not be recorded", job.id, job.run)
                failed = attempt_error(RecordError(f"the outcome could not be recorded: {failure}"))
                self._record(job.id, None, failed, cancelled, timing)
        except Exception:
            log.exception(
                "job %s run %s: its failure could not be recorded either; it runs again after a restart",
                job.id,
                job.run,
            )
        finally:
            self._in_use.subtract(job.types)
            self._tasks.pop(job.id, None)
            self._scripts.pop(job.id, None)
        self._schedule()

    def _record(
        self, job_id: int, result: Any, error: str | None, cancelled: bool, timing: tuple[float, float]
    ) -> None:
        """The outcome of a run, in the transaction that ends it."""
        with self._transaction():
            current = self.get(job_id)
            if current.cancel_requested and error is None:
                cancelled, error = True, "cancelled while running"
            if error is None:
                error = oversized_result(result)  # as the ZooKeeper backend must: same jobs, same outcome
            current.attempts[-1].script_started, current.attempts[-1].script_ended = timing
            finish_attempt(current, error, cancelled=cancelled)
            if error is None:
                current.state, current.result, current.ended = DONE, result, time.time()
            if current.state == QUEUED:
                self._db.execute("update jobs set due = ? where id = ?", (time.time(), current.id))
            self._save(current)

    def _cancel_run(self, job_id: int) -> None:
        script = self._scripts.get(job_id)
        if script is not None:
            script.cancel()
