"""Finished jobs and their results, kept queryable after ZooKeeper lets go of
them (guarantee 8): ZooKeeper holds live state only; the limiter master moves
jobs that ended more than ``keep`` seconds ago here and deletes their znodes,
and workers write each run's result here directly, since a result may be far
larger than a znode.

One archive for the whole cluster, on either database, chosen by a URL:

- ``postgresql://user:password@host:port/db`` (or ``postgres://``): PostgreSQL, for
  workers and gateways on several hosts (``archive_pg``);
- ``sqlite:///absolute/path`` or a plain path: a SQLite file, the embedded default
  for one host (``archive_sqlite``).

Each creates and migrates its own tables on open (``archive_schema``). The
threads of a process may share one ``Archive``.

On PostgreSQL no call waits for good: ``statement_timeout`` (seconds, 60 by
default: a 64 MB result on a slow link) bounds each statement at the server and,
with a second's margin, each call at the client, whatever the network does; past
it the call raises ``ArchiveUnavailable`` (see ``archive_pg``). A SQLite file is
local and needs no such bound.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..config_keys import declared_default
from .archive_errors import ArchiveError, ArchiveUnavailable, ResultTooLarge, SchemaTooNew
from .archive_schema import STATEMENT_TIMEOUT_S
from .model import MAX_JOB_ID, Job

__all__ = [
    "DEFAULT_MAX_RESULT_BYTES",
    "STATEMENT_TIMEOUT_S",
    "Archive",
    "ArchiveError",
    "ArchiveUnavailable",
    "ResultTooLarge",
    "SchemaTooNew",
]

DEFAULT_MAX_RESULT_BYTES: int = declared_default("jobs.maxResultBytes")  # unless the config says otherwise
_MIN_ID = -(2**63)  # both databases keep ids and runs as signed 64-bit integers

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


def _open_store(target: str | Path, statement_timeout: float) -> Any:
    if isinstance(target, Path):
        from .archive_sqlite import SqliteStore

        return SqliteStore(target)
    text = str(target)
    scheme = _SCHEME.match(text)
    if scheme is None:
        from .archive_sqlite import SqliteStore

        return SqliteStore(text)
    name = scheme.group(1).lower()
    if name in ("postgresql", "postgres"):
        from ..extras import require

        require("psycopg", "cluster", "a PostgreSQL job archive")
        from .archive_pg import PostgresStore  # psycopg only where PostgreSQL is used

        return PostgresStore(text, statement_timeout=statement_timeout)
    if name == "sqlite":
        path, _, query = text[scheme.end() :].partition("?")
        if not path.startswith("/") or query:
            raise ArchiveUnavailable(
                f"{text!r}: a SQLite archive's URL is sqlite:///absolute/path (or give the path alone)"
            )
        from .archive_sqlite import SqliteStore

        return SqliteStore(unquote(path))
    # the rest of an unknown URL may hold a password: show the scheme alone
    raise ArchiveUnavailable(f"an archive is a postgresql://, sqlite:/// URL or a file path, not a {name}:// URL")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Archive:
    """``Archive(target)`` and ``Archive.open(target)`` are the same: ``target`` is a
    URL or a path as above (a plain path, as callers before PostgreSQL pass, is SQLite)."""

    def __init__(
        self,
        target: str | Path,
        *,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
        statement_timeout: float = STATEMENT_TIMEOUT_S,
    ):
        self.max_result_bytes = max_result_bytes
        self._store = _open_store(target, statement_timeout)

    @classmethod
    def open(
        cls,
        target: str | Path,
        *,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
        statement_timeout: float = STATEMENT_TIMEOUT_S,
    ) -> Archive:
        return cls(target, max_result_bytes=max_result_bytes, statement_timeout=statement_timeout)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._store.dialect

    @property
    def where(self) -> str:
        """The file, or the URL with its password masked: safe for logs and messages."""
        return self._store.where

    def __repr__(self) -> str:
        return f"<Archive {self.where}>"

    # ------------------------------------------------------------------ jobs
    def add(self, jobs: Iterable[Job]) -> None:
        """Idempotent: a job archived twice (a master died between archiving and deleting) is one row."""
        # ASCII JSON, as every job record is stored: a lone surrogate in a result stays an escape
        rows = [(j.id, j.state, j.owner, j.ended, json.dumps(j.to_dict(), ensure_ascii=True)) for j in jobs]
        if rows:
            self._store.add(rows)

    def get(self, job_id: int) -> Job | None:
        job_id = int(job_id)
        if not 1 <= job_id <= MAX_JOB_ID:
            return None  # no job has it, and the databases would overflow
        record = self._store.record(job_id)
        return Job.from_dict(json.loads(record)) if record is not None else None

    def list(self, state: str | None = None, limit: int = 1000, *, owner: str | None = None) -> list[Job]:
        """Newest first; ``state``, ``owner`` (the API key that submitted it): only such jobs."""
        records = self._store.records(state, owner, max(0, min(int(limit), MAX_JOB_ID)))
        return [Job.from_dict(json.loads(r)) for r in records]

    # ------------------------------------------------------------------ results
    def put_result(self, job_id: int, run: int, data: bytes) -> None:
        """A run's result, JSON-encoded. Idempotent per (job, run): a run that writes again
        (its worker retried after a lost connection) replaces what it wrote."""
        self._check_run(job_id, run)
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"a result is bytes (its JSON, encoded), not {type(data).__name__}")
        size = data.nbytes if isinstance(data, memoryview) else len(data)
        if size > self.max_result_bytes:
            raise ResultTooLarge(
                f"job {job_id}'s result takes {size:,} bytes; the archive keeps at most "
                f"{self.max_result_bytes:,} (jobs.maxResultBytes)"
            )
        self._store.put_result(job_id, run, data)

    def get_result(self, job_id: int, run: int) -> bytes | None:
        self._check_run(job_id, run)
        return self._store.get_result(job_id, run)

    def drop_results(self, job_id: int, *, except_run: int | None = None) -> None:
        """The job's results, but for ``except_run``'s: a run that lost its job (fenced,
        taken back) may have written one that no record points to."""
        self._check_run(job_id, 0 if except_run is None else except_run)
        self._store.drop_results(job_id, except_run)

    @staticmethod
    def _check_run(job_id: Any, run: Any) -> None:
        if not (_whole(job_id) and _whole(run) and _MIN_ID <= job_id <= MAX_JOB_ID and _MIN_ID <= run <= MAX_JOB_ID):
            raise ValueError(f"job ids and runs are 64-bit integers, not {job_id!r}, {run!r}")

    # ------------------------------------------------------------------ lifetime
    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
