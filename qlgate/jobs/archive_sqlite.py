"""The archive in a SQLite file: the embedded default, for one host. Several
processes may open the file (WAL, ``sqlite.open_database``); the threads of one
process share its connection, one statement or transaction at a time."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from ..limits.stores.sqlite import open_database
from .archive_errors import ArchiveError, ArchiveUnavailable
from .archive_schema import VERSION_TABLE, JobRow, pending
from .sqlite import job_filter


class SqliteStore:
    dialect = "sqlite"

    def __init__(self, path: str | Path):
        self.where = str(path)
        try:
            self._db: sqlite3.Connection | None = open_database(path, "")
        except (sqlite3.Error, OSError) as error:
            raise ArchiveUnavailable(f"cannot open the archive {self.where}: {error}") from error
        self._lock = threading.Lock()
        try:
            self._migrate()
        except BaseException:
            self._db.close()
            raise

    def _migrate(self) -> None:
        """``begin immediate`` takes the file's write lock before the version is read, so a
        second process opening a fresh file waits (up to the busy timeout) and then finds
        it migrated. DDL is transactional in SQLite: a failed migration leaves nothing."""
        db = self._connection()
        db.execute("begin immediate")
        try:
            db.execute(
                f"create table if not exists {VERSION_TABLE} "
                "(version integer primary key, applied text not null default current_timestamp)"
            )
            applied = [v for (v,) in db.execute(f"select version from {VERSION_TABLE}")]
            for version, statements in pending(self.dialect, applied, self.where):
                for statement in statements:
                    db.execute(statement)
                db.execute(f"insert into {VERSION_TABLE} (version) values (?)", (version,))
            db.execute("commit")
        except BaseException:
            db.execute("rollback")
            raise

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise ArchiveError(f"the archive {self.where} is closed")
        return self._db

    def add(self, rows: list[JobRow]) -> None:
        with self._lock:
            db = self._connection()
            db.execute("begin immediate")  # one commit for the batch, not one per row
            try:
                db.executemany(
                    "insert or replace into archived_jobs (id, state, ended, record) values (?, ?, ?, ?)",
                    [(job_id, state, ended, record) for job_id, state, _owner, ended, record in rows],
                )
                db.execute("commit")
            except BaseException:
                db.execute("rollback")
                raise

    def record(self, job_id: int) -> str | None:
        with self._lock:
            row = self._connection().execute("select record from archived_jobs where id = ?", (job_id,)).fetchone()
        return row[0] if row else None

    def records(self, state: str | None, owner: str | None, limit: int) -> list[str]:
        clause, params = job_filter(state, owner)
        with self._lock:
            rows = (
                self._connection()
                .execute(f"select record from archived_jobs {clause} order by id desc limit ?", (*params, limit))
                .fetchall()
            )
        return [record for (record,) in rows]

    def put_result(self, job_id: int, run: int, data: bytes) -> None:
        with self._lock:
            self._connection().execute(
                "insert or replace into archived_results (job_id, run, data) values (?, ?, ?)", (job_id, run, data)
            )

    def get_result(self, job_id: int, run: int) -> bytes | None:
        with self._lock:
            row = (
                self._connection()
                .execute("select data from archived_results where job_id = ? and run = ?", (job_id, run))
                .fetchone()
            )
        return row[0] if row else None

    def drop_results(self, job_id: int, except_run: int | None) -> None:
        with self._lock:
            if except_run is None:
                self._connection().execute("delete from archived_results where job_id = ?", (job_id,))
            else:
                self._connection().execute(
                    "delete from archived_results where job_id = ? and run <> ?", (job_id, except_run)
                )

    def close(self) -> None:
        with self._lock:
            db, self._db = self._db, None
            if db is not None:
                db.close()
