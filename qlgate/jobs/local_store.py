"""The embedded job backend's storage (``LocalJobs`` in ``local.py``): one SQLite
file, which the gateway processes on a host share, holding each job as a JSON
record beside the columns its queue is ordered by, the types' concurrency
limits and call rates, and recent idempotency keys.

Kept apart from ``local.py`` and ``local_runs.py`` so that the backend reads as
its API and its run loop, over the few ways they touch the file: a transaction
that holds SQLite's write lock from its first read, and reading and writing job
records.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..limits.stores.sqlite import open_database
from .model import Job, JobNotFound, check_job_id

SCHEMA = """
create table if not exists jobs (
    id integer primary key autoincrement,     -- never reused, even after deletes
    state text not null,
    priority integer not null,
    due real not null,
    record text not null
);
create index if not exists jobs_queue on jobs (state, priority desc, due, id);
create table if not exists limits (type text primary key, value integer not null);
create table if not exists rates (type text primary key, calls integer not null, per text not null,
                                  time_zone text not null default 'UTC');
create table if not exists idempotency_keys (
    digest text primary key,                  -- model.key_digest(owner, key)
    job_id integer not null,
    at real not null
);
create index if not exists idempotency_keys_by_age on idempotency_keys (at);
create table if not exists runner (           -- the gateway process of the host that runs the jobs
    id integer primary key check (id = 1),
    pid integer not null,
    started real not null,
    slots integer not null
);
"""


class LocalStore:
    """The database of a ``LocalJobs``, its lock, and the condition a waiter on a
    job's end sleeps on."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._db = open_database(self.path, SCHEMA)
        self._db.execute("pragma synchronous=normal")
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        if "time_zone" not in {row[1] for row in self._db.execute("pragma table_info(rates)")}:
            # a database from before per-day quotas had a time zone: theirs was UTC
            self._db.execute("alter table rates add column time_zone text not null default 'UTC'")

    # ------------------------------------------------------------------ storage
    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """A read and the writes that depend on it, as one: ``begin immediate`` takes
        SQLite's write lock at once, so another gateway process cannot write in between
        (a cancel that read "running" must not overwrite the run's own "done")."""
        with self._lock:
            self._db.execute("begin immediate")
            try:
                yield
                self._db.execute("commit")
            except BaseException:
                self._db.execute("rollback")
                raise

    def _select(self, where: str, params: tuple) -> list[Job]:
        rows = self._db.execute(f"select record from jobs {where}", params).fetchall()
        return [Job.from_dict(json.loads(record)) for (record,) in rows]

    def _save(self, job: Job) -> None:
        # ASCII-only JSON: any Unicode a record holds (a lone surrogate too) is stored as an escape,
        # where SQLite's UTF-8 would refuse it and fail the transaction
        self._db.execute(
            "update jobs set state = ?, priority = ?, record = ? where id = ?",
            (job.state, job.priority, json.dumps(job.to_dict(), ensure_ascii=True), job.id),
        )
        if job.final:
            self._changed.notify_all()

    def get(self, job_id: int) -> Job:
        with self._lock:
            jobs = self._select("where id = ?", (check_job_id(job_id),))
        if not jobs:
            raise JobNotFound(f"no job {job_id}")
        return jobs[0]
