"""The embedded job backend: the gateway runs jobs in-process, with the same
API and guarantees as the ZooKeeper backend on one host, persisted in SQLite.

A run is written down as running (its slot taken) before it starts, and its
outcome in the same transaction that frees the slot. After a restart, runs
that were in flight count as interrupted attempts and go back to the queue,
so nothing accepted is ever lost.

The run loop (scheduling, running, recording outcomes) is ``LocalRuns``'s
(``local_runs.py``); the file's schema, and the reads and writes of job records
every part here shares, are ``LocalStore``'s (``local_store.py``).
"""

from __future__ import annotations

import builtins
import logging
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

from ..limits.api_types import check_type
from ..limits.rate import Rate
from .local_runs import WORKER_NAME, LocalRuns
from .model import (
    CANCELLED,
    KEY_KEEP_S,
    MAX_RUN_SECONDS,
    QUEUED,
    RUNNING,
    STATES,
    Job,
    JobError,
    JobRunner,
    JobSpec,
    QueueFull,
    check_idempotency_key,
    check_limit,
    key_digest,
    new_job,
)
from .sqlite import job_filter


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


log = logging.getLogger("qlgate.jobs.local")


class LocalJobs(LocalRuns):
    """The backend's API over the file and the run loop (``local_runs.py``)."""

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
        super().__init__(path, runner, slots=slots, poll_interval=poll_interval, max_run_seconds=max_run_seconds)
        self.max_queue = max_queue

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ the API
    def submit(self, spec: JobSpec) -> int:
        """Queue a job; its id. With ``idempotency_key``, a second submission under the
        same key and owner answers the first one's id (keys last ``KEY_KEEP_S``)."""
        key = check_idempotency_key(spec.idempotency_key)
        job = new_job(0, spec, max_run_seconds=self.max_run_seconds)
        digest = key_digest(spec.owner, key) if key is not None else None
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
