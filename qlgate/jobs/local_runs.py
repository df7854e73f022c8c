"""The embedded job backend's run loop (``LocalJobs`` in ``local.py`` is its
API): on the gateway's event loop, start every due job, best first, whose types
all have a free slot; run it within its deadline; and record its outcome in the
transaction that frees the slot. A run is written down as running before it
starts, so runs cut short by a stop go back to the queue at the next start."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any, Self, cast

from .local_store import LocalStore
from .model import (
    DONE,
    MAX_RUN_SECONDS,
    QUEUED,
    RUNNING,
    Attempt,
    Job,
    JobRunner,
    RecordError,
    attempt_error,
    finish_attempt,
    oversized_result,
)
from .runner import run_with_deadline

WORKER_NAME = "embedded"

log = logging.getLogger("qlgate.jobs.local")


class LocalRuns(LocalStore):
    def __init__(
        self,
        path: str | Path,
        runner: JobRunner | None = None,
        *,
        slots: int = 4,
        poll_interval: float = 0.25,
        max_run_seconds: float = MAX_RUN_SECONDS,
    ):
        super().__init__(path)  # the database, its lock and the condition waiters sleep on
        self.runner = runner
        self.slots = slots
        self.max_run_seconds = max_run_seconds  # config jobs.maxRunSeconds: no run takes longer
        self.poll_interval = poll_interval  # other processes (gateway workers) submit and cancel too
        self._tasks: dict[int, asyncio.Task] = {}  # job id → its run (bookkeeping included)
        self._scripts: dict[int, asyncio.Future] = {}  # job id → the script, the part a cancel stops
        self._in_use: Counter[str] = Counter()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self.started_at: float | None = None

    # ------------------------------------------------------------------ life
    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> Self:
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
