"""Finished jobs, kept queryable after ZooKeeper lets go of them (guarantee 8):
ZooKeeper holds live state only; the limiter master moves jobs that ended more
than ``keep`` seconds ago here (SQLite by default) and deletes their znodes."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Iterable

from .model import Job
from .sqlite import job_filter, open_database

SCHEMA = """
create table if not exists archived_jobs (
    id integer primary key,
    state text not null,
    ended real,
    record text not null
);
create index if not exists archived_by_state on archived_jobs (state, id);
"""


class Archive:
    def __init__(self, path: str | Path):
        self._db = open_database(path, SCHEMA)
        self._lock = threading.Lock()

    def add(self, jobs: Iterable[Job]) -> None:
        """Idempotent: a job archived twice (a master died between archiving and deleting) is one row."""
        # ASCII JSON, as every job record is stored: a lone surrogate in a result stays an escape
        rows = [(j.id, j.state, j.ended, json.dumps(j.to_dict(), ensure_ascii=True)) for j in jobs]
        with self._lock:
            self._db.executemany("insert or replace into archived_jobs values (?, ?, ?, ?)", rows)

    def get(self, job_id: int) -> Job | None:
        with self._lock:
            row = self._db.execute("select record from archived_jobs where id = ?", (int(job_id),)).fetchone()
        return Job.from_dict(json.loads(row[0])) if row else None

    def list(self, state: str | None = None, limit: int = 1000, *, owner: str | None = None) -> list[Job]:
        clause, params = job_filter(state, owner)
        with self._lock:
            rows = self._db.execute(f"select record from archived_jobs {clause} order by id desc limit ?",
                                    (*params, limit))
            return [Job.from_dict(json.loads(r)) for (r,) in rows.fetchall()]

    def close(self) -> None:
        with self._lock:
            self._db.close()
