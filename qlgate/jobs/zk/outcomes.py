"""Recording a run's outcome, and handing back runs never started: the way out
of a run, kept apart from the worker's life and intake (``worker.py``) because
it is where a run's end meets ZooKeeper's failures — a transaction that fails
because the run was taken back, a connection lost mid-commit, a result too
large or not encodable, a stop's bound — and each has its own answer here.

Every outcome is one transaction that frees the run's slots, removes its
assignment and writes the record; it fails, and the late outcome is dropped,
when the limiter took the run back meanwhile: a job never ends twice. A mixin
of ``Worker``: it works on the worker's runs in hand (their sessions, the
fenced ones) and on its connection.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import BadVersionError, ConnectionLoss, NoNodeError, SessionExpiredError
from kazoo.protocol.states import KeeperState

from ..model import (
    DONE,
    QUEUED,
    RUNNING,
    Job,
    RecordError,
    attempt_error,
    encode_result,
    finish_attempt,
    oversized_result,
    queue_place,
    too_large,
)
from .layout import Layout, commit, decode, encode, enqueue, forget_bucket, free_slots, mark_finished, parse_run_name
from .lease import SessionLease

if TYPE_CHECKING:
    from ..archive import Archive

log = logging.getLogger("qlgate.jobs.worker")


class Outcomes:
    """The ``Worker``'s way out of a run (see the module's docstring); the worker
    sets every attribute below."""

    client: KazooClient
    layout: Layout
    lease: SessionLease
    name: str
    archive: Archive | None
    max_result_bytes: int
    _running: dict[str, Future]
    _cancel_early: set[str]
    _sessions: dict[str, int | None]
    _fenced: dict[str, str]
    _give_up_at: float | None

    def _on_loop(self) -> asyncio.AbstractEventLoop:
        raise NotImplementedError  # the worker's

    def _finish(
        self,
        name: str,
        info: dict[str, Any],
        result: Any,
        error: str | None,
        cancelled: bool,
        timing: tuple[float, float],
    ) -> None:
        job_id, run = parse_run_name(name)
        # first try with the record and version the grant gave us: no read on the way out
        job, version = Job.from_dict(info["job"]), info.get("version")
        unrecordable = False
        stored: int | None = None
        if self.archive is not None and error is None and not cancelled:
            result, stored, error = None, *self._store_result(job_id, run, result)
        try:
            while True:
                if self.lease.current_session() != self._sessions.get(name):
                    log.warning(
                        "job %s run %s: outcome dropped: the session the run was handed over on "
                        "has ended, and the limiter takes the run back",
                        job_id,
                        run,
                    )
                    return
                try:
                    if self._record_outcome(name, info, job, version, result, error, cancelled, timing, stored):
                        return
                except (ConnectionLoss, SessionExpiredError):
                    # the outcome may or may not have landed: once connected, read and try again
                    # (had it landed, the run is no longer ours and we stop there)
                    if not self._connected_again(self._sessions.get(name)):
                        log.warning(
                            "job %s run %s: outcome dropped: no connection to record it; the "
                            "limiter takes the run back once our session has ended",
                            job_id,
                            run,
                        )
                        return
                except Exception as failure:
                    # an outcome that cannot be recorded (a result JSON cannot encode, say) must not
                    # keep the run's slots: the attempt fails instead, on a fresh read of the record
                    if unrecordable:
                        log.exception("job %s run %s: not even its failure could be recorded", job_id, run)
                        return
                    log.exception("job %s run %s: its outcome could not be recorded", job_id, run)
                    unrecordable, result = True, None
                    error = attempt_error(RecordError(f"the outcome could not be recorded: {failure}"))
                version = None
        finally:
            self._forget(name)

    def _forget(self, name: str) -> None:
        self._running.pop(name, None)
        self._sessions.pop(name, None)
        self._fenced.pop(name, None)
        self._on_loop().call_soon_threadsafe(self._cancel_early.discard, name)  # a request that came late

    def _hand_back(self, name: str, info: dict[str, Any]) -> None:
        """A run we never started goes back to the queue at its place, its attempt
        undone (on the finish pool: it waits on ZooKeeper)."""
        job_id, run = parse_run_name(name)
        lay = self.layout
        try:
            data, stat = self.client.get(lay.job(job_id))
            job = Job.from_dict(decode(data))
            if job.state != RUNNING or job.run != run:
                return
            if job.attempts and job.attempts[-1].run == run:
                job.attempts.pop()
            job.state, job.started = QUEUED, None
            tx = self.client.transaction()
            tx.delete(f"{lay.assignments(self.name)}/{name}")
            free_slots(tx, lay, name, info["types"])
            record = job.to_dict()
            tx.set_data(lay.job(job_id), encode(record), version=stat.version)
            enqueue(tx, lay, record, stat.version + 1, queue_place(job))
            commit(tx)
            log.info("job %s run %s: handed back unstarted (the worker is stopping)", job_id, run)
        except Exception as error:  # noqa: BLE001 — the limiter takes it back once our session has ended
            log.warning(
                "job %s run %s: could not hand it back (%s); the limiter takes it back",
                job_id,
                run,
                type(error).__name__,
            )
        finally:
            self._sessions.pop(name, None)

    def _store_result(self, job_id: int, run: int, result: Any) -> tuple[int | None, str | None]:
        """Write a run's result to the database before the transaction that names it:
        (its size, None), or (None, why the attempt fails instead)."""
        try:
            data = encode_result(result)
        except (TypeError, ValueError) as failure:
            return None, attempt_error(RecordError(f"the result cannot be encoded: {failure}"))
        if len(data) > self.max_result_bytes:
            return None, too_large(len(data), self.max_result_bytes)
        archive = self.archive
        assert archive is not None  # called only with a database
        try:
            archive.put_result(job_id, run, data)
        except Exception as failure:  # noqa: BLE001 — the database away: the attempt fails and is retried
            log.warning("job %s run %s: its result could not be written to %s: %s", job_id, run, archive.where, failure)
            return None, attempt_error(RecordError(f"the result could not be stored: {failure}"))
        return len(data), None

    def _record_outcome(
        self,
        name: str,
        info: dict[str, Any],
        job: Job,
        version: int | None,
        result: Any,
        error: str | None,
        cancelled: bool,
        timing: tuple[float, float],
        stored: int | None = None,
    ) -> bool:
        """One try at the transaction that ends the run; False: read the record and try again."""
        job_id, run = parse_run_name(name)
        lay = self.layout
        if version is None:
            try:
                data, stat = self.client.get(lay.job(job_id))
            except NoNodeError:
                return True
            job, version = Job.from_dict(decode(data)), stat.version
        if job.state != RUNNING or job.run != run:
            log.warning(
                "job %s run %s: outcome dropped: the run was taken back (the job is %s, run %s)",
                job_id,
                run,
                job.state,
                job.run,
            )
            return True
        if job.cancel_requested:  # asked to stop: it ends cancelled, whatever this run did
            cancelled, error = True, error or "cancelled while running"
        if error is None and stored is None:
            error = oversized_result(result)
        job.attempts[-1].script_started, job.attempts[-1].script_ended = timing
        finish_attempt(job, error, cancelled=cancelled)
        if error is None:
            job.state, job.result, job.ended = DONE, result, time.time()
            job.result_bytes = stored
        tx = self.client.transaction()
        tx.delete(f"{lay.assignments(self.name)}/{name}")  # fails if the run was taken back
        free_slots(tx, lay, name, info["types"])
        record = job.to_dict()
        tx.set_data(lay.job(job_id), encode(record), version=version)
        if job.state == QUEUED:
            # a fenced run was taken back, not failed by its script: it keeps its place in the queue
            due = queue_place(job) if name in self._fenced else time.time()
            enqueue(tx, lay, record, version + 1, due)
        else:
            assert job.ended is not None  # every final state sets it
            mark_finished(self.client, tx, lay, job_id, job.ended)
        try:
            commit(tx)
        except BadVersionError:
            return False  # a cancel request landed meanwhile: read again
        except NoNodeError:
            # the run was taken back, unless the finished index's bucket had gone
            if job.state == QUEUED or job.ended is None or not forget_bucket(self.client, lay, job.ended):
                log.warning("job %s run %s: outcome dropped: the run was taken back", job_id, run)
                return True
            return False
        if name in self._fenced:
            log.warning("job %s run %s: recorded as fenced; the job is %s", job_id, run, job.state)
        else:
            log.info("job %s run %s: %s", job_id, run, job.state)
        return True

    def _connected_again(self, session: int | None) -> bool:
        """Wait for the connection for as long as ``session`` lasts (an outage without a
        quorum expires no session, however long: the run's slots stay ours and only we
        can record its outcome) — but never past a stop's bound."""
        while self.client.state != KazooState.CONNECTED:
            if self.lease.current_session() != session or self.client.client_state == KeeperState.CLOSED:
                return False
            if self._give_up_at is not None and time.monotonic() > self._give_up_at:
                return False
            time.sleep(0.05)
        return self.lease.current_session() == session
