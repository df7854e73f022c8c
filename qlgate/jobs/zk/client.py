"""Submitting, watching and cancelling jobs, and setting limits, straight on
ZooKeeper — what ``qlgate jobs --zookeeper`` and a gateway with
``--zookeeper`` use. Workers and the limiter do the rest."""

from __future__ import annotations

import builtins
import json
import threading
import time
from collections.abc import Iterable
from typing import Any

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import BadVersionError, ConnectionLoss, NodeExistsError, NoNodeError, SessionExpiredError

from ...limits.api_types import check_type
from ...limits.rate import Rate
from ...limits.stores.zk_rates import ZkTokens
from ..archive import Archive
from ..ids import IdAllocator
from ..model import (
    CANCELLED,
    MAX_RUN_SECONDS,
    QUEUED,
    RUNNING,
    STATES,
    Job,
    JobError,
    JobNotFound,
    JobSpec,
    QueueFull,
    check_idempotency_key,
    check_job_id,
    check_limit,
    key_digest,
    new_job,
    parse_queue_key,
    queue_key_types,
)
from .layout import (
    Layout,
    ask_to_cancel,
    commit,
    decode,
    dequeue,
    encode,
    enqueue,
    forget_bucket,
    mark_finished,
    parse_run_name,
    run_name,
)

DEFAULT_MAX_QUEUE = 100_000
EXACT_WITHIN = 64  # submissions this close to the queue bound are checked at commit
SUBMIT_RETRIES = 5  # reads around a submission retried across connection losses


class ZkJobs:
    def __init__(
        self,
        client: KazooClient,
        *,
        root: str = "/qlgate",
        max_queue: int = DEFAULT_MAX_QUEUE,
        id_batch: int = 100,
        archive: Archive | None = None,
        owns_client: bool = False,
        max_run_seconds: float = MAX_RUN_SECONDS,
    ):
        self.client = client
        self.max_run_seconds = max_run_seconds  # no job may ask for longer (workers cap runs at their own)
        self.owns_client = owns_client  # close() also ends the session (the CLI's own client)
        self.archive = archive  # finished jobs the limiter has moved out of ZooKeeper
        self.layout = Layout(root)
        self.layout.ensure(client)
        self.max_queue = max_queue
        self.ids = IdAllocator(client, "jobs", batch=id_batch, root=self.layout.ids)
        self._token_store: ZkTokens | None = None

    def close(self) -> None:
        self.ids.close()
        if self.owns_client:
            self.client.stop()
            self.client.close()

    # ------------------------------------------------------------------ submit
    def submit(self, spec: JobSpec) -> int:
        """Queue a job; its id. Never queues it twice: the id is chosen before the
        transaction, so after a ConnectionLoss (which may hide a commit that landed)
        the job's node tells whether it did. With ``idempotency_key``, a second
        submission under the same key and owner — a client's retry, from any
        process — answers the first one's id (keys last ``KEY_KEEP_S``)."""
        key = check_idempotency_key(spec.idempotency_key)
        job = new_job(0, spec, max_run_seconds=self.max_run_seconds)
        key_path = self.layout.key(key_digest(spec.owner, key)) if key is not None else None
        if key_path is not None and (earlier := self._keyed(key_path)) is not None:
            return earlier
        due = max(job.submitted, job.not_before)
        while True:
            stat = self._call(self.client.exists, self.layout.queue)
            if stat.numChildren >= self.max_queue:
                raise QueueFull(f"the queue holds {stat.numChildren} jobs, its limit", retry_after=1.0)
            if not job.id:
                job.id = self._call(self.ids.next_id)
            tx = self.client.transaction()
            if stat.numChildren >= self.max_queue - EXACT_WITHIN:
                # near the bound, the count must still hold at commit: the queue node's version is
                # touched by every enqueue and dequeue but the master's grants (which only shorten
                # the queue), so submissions racing here go one at a time and the bound is exact
                tx.check(self.layout.queue, stat.version)
            record = job.to_dict()
            tx.create(self.layout.job(job.id), encode(record))
            enqueue(tx, self.layout, record, 0, due)
            if key_path is not None:
                tx.create(key_path, encode({"id": job.id, "at": time.time()}))
            try:
                commit(tx)
                return job.id
            except BadVersionError:
                continue  # another submission or a cancel came first: count again
            except NodeExistsError:
                # the key was taken meanwhile (the same request, sent twice at once), or our own
                # commit had landed before a connection loss hid it
                if key_path is not None and (earlier := self._keyed(key_path)) is not None:
                    return earlier
                if self._call(self.client.exists, self.layout.job(job.id)) is not None:
                    return job.id
                raise
            except (ConnectionLoss, SessionExpiredError):
                self._await_connection()
                # the commit may have reached the leader before the connection went: sync first, so
                # that the server we now read from has applied everything the leader has
                self._call(self.client.sync, self.layout.jobs)
                if self._call(self.client.exists, self.layout.job(job.id)) is not None:
                    return job.id  # it had landed: the id was ours alone
                continue

    def _keyed(self, path: str) -> int | None:
        try:
            data, _ = self._call(self.client.get, path)
        except NoNodeError:
            return None
        return int(decode(data)["id"])

    def _call(self, method, *args, **kwargs):
        """A read, retried across a connection loss (reads are safe to repeat)."""
        for attempt in range(SUBMIT_RETRIES):
            try:
                return method(*args, **kwargs)
            except (ConnectionLoss, SessionExpiredError):
                if attempt == SUBMIT_RETRIES - 1:
                    raise
                self._await_connection()
        raise AssertionError("unreachable")  # pragma: no cover

    def _await_connection(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while self.client.state != KazooState.CONNECTED:
            if time.monotonic() > deadline:
                raise ConnectionLoss(f"no ZooKeeper connection for {timeout:g} s")
            time.sleep(0.02)

    # ------------------------------------------------------------------ read
    def get(self, job_id: int) -> Job:
        """A job's record, wherever it is kept: in ZooKeeper while it is live, then in the
        archive. A result the worker wrote to the database (``Job.result_bytes``) is not
        read here — a record stays small whatever its result — but by ``load_result``."""
        check_job_id(job_id)  # the archive's ids are 64-bit integers
        try:
            return self._read(job_id)[0]
        except JobNotFound:
            archived = self.archive.get(job_id) if self.archive is not None else None
            if archived is None:
                raise
            return archived

    def stored_result(self, job: Job) -> bytes | None:
        """A done job's result as the database keeps it (JSON bytes); None when it is in
        the record itself."""
        if job.result_bytes is None:
            return None
        if self.archive is None:
            raise JobError(
                f"job {job.id}'s result is in the cluster's database, and this client has none "
                "(jobs.database, --database)"
            )
        data = self.archive.get_result(job.id, job.run)
        if data is None:
            raise JobError(
                f"job {job.id}'s result is missing from {self.archive.where}: is that the "
                "database the cluster's workers write to (jobs.database)?"
            )
        return data

    def load_result(self, job: Job) -> Any:
        """A done job's result, from its record or the cluster's database."""
        data = self.stored_result(job)
        return job.result if data is None else json.loads(data)

    def _read(self, job_id: int) -> tuple[Job, int]:
        try:
            data, stat = self.client.get(self.layout.job(int(job_id)))
        except NoNodeError:
            raise JobNotFound(f"no job {job_id}") from None
        return Job.from_dict(decode(data)), stat.version

    def list(self, state: str | None = None, limit: int = 1000, *, owner: str | None = None) -> builtins.list[Job]:
        """Jobs newest first; ``owner``: only those the key of that name submitted."""
        if state is not None and state not in STATES:
            raise JobError(f"unknown state '{state}'; one of {', '.join(STATES)}")
        # a server of the ensemble may lag the leader (one that just took over, say): synced
        # first, a list shows every job submitted before it, through whichever session
        self.client.sync(self.layout.jobs)
        names = sorted(self.client.get_children(self.layout.jobs), key=int, reverse=True)
        pending = [self.client.get_async(self.layout.job(int(n))) for n in names]
        jobs = []
        for result in pending:
            try:
                data, _ = result.get()
            except NoNodeError:
                continue
            job = Job.from_dict(decode(data))
            if (state is None or job.state == state) and (owner is None or job.owner == owner):
                jobs.append(job)
                if len(jobs) >= limit:
                    break
        if self.archive is not None and len(jobs) < limit:
            live = {j.id for j in jobs}
            jobs += [j for j in self.archive.list(state, limit, owner=owner) if j.id not in live]
            jobs = sorted(jobs, key=lambda j: j.id, reverse=True)[:limit]
        return jobs

    def wait(self, job_ids: Iterable[int], timeout: float | None = None) -> builtins.list[Job]:
        """Block until every job is final (a watch per job, not polling)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        out = []
        for job_id in job_ids:
            changed = threading.Event()
            while True:
                changed.clear()
                try:
                    data, _ = self.client.get(
                        self.layout.job(int(job_id)), watch=lambda _e, changed=changed: changed.set()
                    )
                    job = Job.from_dict(decode(data))
                except NoNodeError:
                    job = self.get(job_id)  # archived (finished), or JobNotFound
                if job.final:
                    out.append(job)
                    break
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise TimeoutError(f"job {job_id} is still {job.state} after {timeout} s")
                changed.wait(left)
        return out

    # ------------------------------------------------------------------ cancel
    def cancel(self, job_id: int) -> Job:
        """A queued job is cancelled at once; a running one when its worker sees the request."""
        tell_worker = True
        while True:
            try:
                job, version = self._read(job_id)
            except JobNotFound:
                return self.get(job_id)  # archived: it has ended already
            if job.final:
                return job
            tx = self.client.transaction()
            if job.state == QUEUED:
                entry = self._queue_entry(job.id)
                job.state, job.ended = CANCELLED, time.time()
                if entry is not None:
                    dequeue(tx, self.layout, entry)
                mark_finished(self.client, tx, self.layout, job.id, job.ended)
            else:
                job.cancel_requested = True
                if tell_worker and job.attempts:
                    ask_to_cancel(tx, self.layout, job.attempts[-1].worker, run_name(job.id, job.run))
            tx.set_data(self.layout.job(job.id), encode(job.to_dict()), version=version)
            try:
                commit(tx)
                return job
            except (BadVersionError, NoNodeError) as failure:
                if isinstance(failure, NoNodeError):
                    if job.final:
                        forget_bucket(self.client, self.layout, job.ended)
                    elif job.state == RUNNING and self.client.exists(self.layout.job(job.id)) is not None:
                        # the worker has no cancel node (it is gone): its run ends on the record alone
                        tell_worker = False
                continue  # it moved on meanwhile (started, or finished): look again

    def _queue_entry(self, job_id: int) -> str | None:
        return next((n for n in self.client.get_children(self.layout.queue) if parse_queue_key(n)[2] == job_id), None)

    # ------------------------------------------------------------------ call rates
    def set_rate(self, job_type: str, rate: Rate | None) -> None:
        self._tokens().set_rate(job_type, rate)

    def rates(self) -> dict[str, Rate]:
        return self._tokens().rates()

    def _tokens(self) -> ZkTokens:
        if self._token_store is None:
            self._token_store = ZkTokens(self.client, root=self.layout.root)
        return self._token_store

    # ------------------------------------------------------------------ limits
    def set_limit(self, job_type: str, limit: int | None) -> None:
        """``None`` removes the limit (the type is then bounded by worker slots only)."""
        path = self.layout.limit(check_type(job_type))
        if limit is None:
            try:
                self.client.delete(path)
            except NoNodeError:
                pass
            return
        check_limit(limit)
        try:
            self.client.create(path, encode(limit))
        except NodeExistsError:
            self.client.set(path, encode(limit))

    def limits(self) -> dict[str, dict[str, Any]]:
        """Each type with a limit or with jobs: its limit (None = none), runs holding a slot, jobs waiting."""
        out: dict[str, dict[str, Any]] = {}
        for job_type in self.client.get_children(self.layout.limits):
            data, _ = self.client.get(self.layout.limit(job_type))
            out[job_type] = {"limit": decode(data), "running": 0, "waiting": 0}
        for job_type in self.client.get_children(self.layout.running_root):
            count = len(self.client.get_children(self.layout.running(job_type)))
            out.setdefault(job_type, {"limit": None, "running": 0, "waiting": 0})["running"] = count
        for entry in self.client.get_children(self.layout.queue):  # entry names carry their types
            for job_type in queue_key_types(entry):
                out.setdefault(job_type, {"limit": None, "running": 0, "waiting": 0})["waiting"] += 1
        return {t: v for t, v in sorted(out.items()) if v["limit"] is not None or v["running"] or v["waiting"]}

    def workers(self) -> dict[str, dict[str, Any]]:
        out = {}
        for name in self.client.get_children(self.layout.workers):
            try:
                data, _ = self.client.get(self.layout.worker(name))
            except NoNodeError:
                continue
            try:
                busy = len(self.client.get_children(self.layout.assignments(name)))
            except NoNodeError:
                busy = 0
            out[name] = {**decode(data), "busy": busy}
        return out

    def master(self) -> str | None:
        """The limiter master's name (the lowest election node), or None."""
        nodes = sorted(self.client.get_children(self.layout.election))
        for node in nodes:
            try:
                data, _ = self.client.get(f"{self.layout.election}/{node}")
                return decode(data)["name"]
            except NoNodeError:
                continue
        return None

    def running_runs(self) -> builtins.list[tuple[str, int, int]]:
        """(type, job id, run) of every slot in use."""
        out = []
        for job_type in self.client.get_children(self.layout.running_root):
            for name in self.client.get_children(self.layout.running(job_type)):
                out.append((job_type, *parse_run_name(name)))
        return out
