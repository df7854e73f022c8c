"""The archive in PostgreSQL: one database for a whole job cluster, so workers
on any host write results to it and any gateway reads them.

One connection per archive, behind a lock (the threads of a process take turns;
no pool to depend on), in autocommit but for the batches and the migration,
which are transactions. Every statement here may run twice with the same
outcome, so when the server drops the connection (a restart, a failover, an
idle timeout) the statement is retried once on a new one; if that fails too the
caller gets ``ArchiveUnavailable``. Connecting gives up after
``CONNECT_TIMEOUT_S`` unless the URL sets ``connect_timeout``, so a dead host
costs seconds, not the kernel's minutes.

No statement may hang, because a hung one holds the lock, and with it every
worker of the process that finishes a run: the job would stay RUNNING for
good. Three bounds, for three ways of going quiet:

- the server runs a statement for at most ``statement_timeout`` (60 s by
  default, ``Archive(..., statement_timeout=…)``: time for a 64 MB result on a
  link of about 10 Mbit/s), then cancels it and the connection lives on: a
  lock it waited for, a slow disk;
- the kernel drops a connection whose host died or vanished without a word:
  TCP keepalives probe one that has heard nothing for ``KEEPALIVES_IDLE_S``,
  and ``TCP_USER_TIMEOUT_MS`` ends it when probes or sent bytes go
  unacknowledged that long (about 20 s either way; Linux lets the user timeout
  decide for keepalives too). A URL may set its own of each;
- neither helps when something still acknowledges every byte but answers
  nothing: a server stopped (SIGSTOP, a frozen VM) whose kernel still runs, or
  a proxy or load balancer in between that lost its other side. So the client
  keeps its own deadline, ``statement_timeout`` plus ``ANSWER_MARGIN_S`` for
  the server's own cancel to arrive first, on each call into the database
  (a batch's transaction, a result's upload): past it the connection's socket
  is shut down under the waiting driver, and the call fails at once.

Any of these is ``ArchiveUnavailable`` (with the password cut out), and is not
retried here: the same statement would likely wait as long again. A worker's
attempt then fails and is retried, like any attempt the database lost.

Large results go both ways in PostgreSQL's binary format: bytea in text format
would be hex, twice the size, decoded in one more copy.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable
from typing import TypeVar
from urllib.parse import unquote, urlsplit, urlunsplit

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from ..config import url_passwords
from .archive_errors import ArchiveError, ArchiveUnavailable
from .archive_schema import STATEMENT_TIMEOUT_S, VERSION_TABLE, JobRow, pending

CONNECT_TIMEOUT_S = 5
ANSWER_MARGIN_S = 1.0  # the client waits this long past statement_timeout: the server's cancel comes first
KEEPALIVES_IDLE_S = 10  # an idle connection is probed after this long …
KEEPALIVES_INTERVAL_S = 5  # … then this often …
KEEPALIVES_COUNT = 3  # … and dropped after this many unanswered probes
TCP_USER_TIMEOUT_MS = 20_000  # a connection whose sent bytes stay unacknowledged this long is dropped
# pg_advisory_xact_lock's key for migrations: "qlgate" in ASCII, then 1. Advisory locks are
# per database, so archives in other databases of the same server never wait for each other
MIGRATION_LOCK = 0x716C_6761_7465_0001

T = TypeVar("T")


def _password_forms(url: str) -> set[str]:
    """Every spelling of the URL's password that could turn up in a message: as libpq
    reads it (userinfo or ``?password=``), and as written, raw and decoded."""
    found = url_passwords(url)  # as any URL of the config reads it
    try:
        found.add(str(conninfo_to_dict(url).get("password") or ""))
    except psycopg.Error:
        pass
    userinfo = url.partition("://")[2].rpartition("@")[0]  # even where urlsplit misreads a raw '/' or '?'
    if ":" in userinfo:
        raw = userinfo.partition(":")[2]
        found |= {raw, unquote(raw)}
    for field in url.partition("?")[2].split("&"):
        name, _, value = field.partition("=")
        if name.lower() == "password":
            found |= {value, unquote(value)}
    return {form for form in found if form}


def _redact(text: str, secrets: set[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def mask_url(url: str) -> str:
    """The URL as it may be shown: user, hosts, port and database, the password as ``***``."""
    secrets = _password_forms(url)
    try:
        parts = urlsplit(url)
        userinfo, at, hosts = parts.netloc.rpartition("@")
        if at and ":" in userinfo:
            userinfo = userinfo.partition(":")[0] + ":***"
        query = (
            "&".join(
                "password=***" if field.partition("=")[0].lower() == "password" else field
                for field in parts.query.split("&")
            )
            if parts.query
            else ""
        )
        shown = urlunsplit(parts._replace(netloc=f"{userinfo}{at}{hosts}", query=query))
    except ValueError:
        shown = url
    return _redact(shown, secrets)


class _Deadline:
    """Shuts a connection's socket down if a call on it is still waiting after ``seconds``.

    The driver then sees its connection end (a read of nothing, a write refused) and
    raises at once, however the other side went quiet. Shutting down, not closing:
    the descriptor stays the driver's, so it cannot be reused under it by another
    socket, and the driver's own close frees it as usual. ``cancel`` before the
    connection is closed, so that the timer never touches a descriptor that has
    since been reused."""

    def __init__(self, conn: psycopg.Connection, seconds: float):
        self._conn = conn
        self._lock = threading.Lock()
        self._over = False
        self.expired = False
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def _expire(self) -> None:
        with self._lock:
            if self._over:
                return
            self.expired = True
            try:
                # a second descriptor for the same socket: shutting it down ends the connection
                # for every descriptor, and closing it leaves the driver's open
                with socket.socket(fileno=os.dup(self._conn.fileno())) as sock:
                    sock.shutdown(socket.SHUT_RDWR)
            except (OSError, psycopg.Error):
                pass  # closed or broken already: the driver knows

    def cancel(self) -> None:
        with self._lock:
            self._over = True
        self._timer.cancel()


class PostgresStore:
    dialect = "postgresql"

    def __init__(self, url: str, *, statement_timeout: float = STATEMENT_TIMEOUT_S):
        if (
            isinstance(statement_timeout, bool)
            or not isinstance(statement_timeout, (int, float))
            or not 0 < statement_timeout < float("inf")
        ):
            raise ValueError(f"statement_timeout is a positive number of seconds, not {statement_timeout!r}")
        self.statement_timeout = float(statement_timeout)
        self.answer_within = self.statement_timeout + ANSWER_MARGIN_S
        self._secrets = _password_forms(url)
        self.where = mask_url(url)
        self._lock = threading.Lock()
        self._conn: psycopg.Connection | None = None
        self._closed = False
        params, failure = None, ""
        try:
            params = conninfo_to_dict(url)
        except psycopg.Error as error:
            failure = self._explain("is not a usable PostgreSQL URL", error)
        if params is None:
            raise ArchiveUnavailable(failure)  # outside the except: nothing chained (see _connection)
        params.setdefault("connect_timeout", CONNECT_TIMEOUT_S)  # the URL's own, if it has one
        params.setdefault("application_name", "qlgate-archive")
        params.setdefault("keepalives", 1)
        params.setdefault("keepalives_idle", KEEPALIVES_IDLE_S)
        params.setdefault("keepalives_interval", KEEPALIVES_INTERVAL_S)
        params.setdefault("keepalives_count", KEEPALIVES_COUNT)
        params.setdefault("tcp_user_timeout", TCP_USER_TIMEOUT_MS)
        # first, so that a statement_timeout the URL's own options set wins at the server (the
        # client's deadline stays this one's)
        server_ms = max(1, round(self.statement_timeout * 1000))
        params["options"] = f"-c statement_timeout={server_ms} {params.get('options') or ''}".strip()
        self._conninfo = make_conninfo("", **params)
        try:
            self._run(self._migrate)
        except BaseException:
            self.close()
            raise

    def _explain(self, what: str, error: BaseException) -> str:
        return f"the archive {self.where} {what}: " + _redact(str(error).strip(), self._secrets)

    def _connection(self) -> psycopg.Connection:
        if self._closed:
            raise ArchiveError(f"the archive {self.where} is closed")
        if self._conn is not None:
            return self._conn
        failure = ""
        try:
            self._conn = conn = psycopg.connect(self._conninfo, autocommit=True)
            return conn
        except psycopg.Error as error:
            failure = self._explain("is unavailable", error)
        # raised outside the except, so the driver's error, whose text may quote the URL with its
        # password, is neither the cause nor the context of ours
        raise ArchiveUnavailable(failure)

    def _discard(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except psycopg.Error:
                pass

    def _run(self, work: Callable[[psycopg.Connection], T]) -> T:
        """``work`` on the connection, within the client's deadline; once more on a new
        connection if the server dropped it. Not retried: an error the connection
        survived (a full disk), which would most likely happen again, and a timeout,
        which would wait as long again."""
        with self._lock:
            failure = ""
            for _attempt in (1, 2):
                conn = self._connection()
                deadline = _Deadline(conn, self.answer_within)
                error: psycopg.Error | None = None
                try:
                    return work(conn)
                except psycopg.Error as raised:
                    error = raised
                finally:
                    deadline.cancel()  # from here on, ``expired`` no longer changes
                if deadline.expired:  # whatever the driver made of its socket shut down
                    self._discard()
                    failure = self._explain(
                        f"did not answer within {self.answer_within:g} s, so its connection was dropped", error
                    )
                    break
                if isinstance(error, psycopg.errors.QueryCanceled):
                    failure = self._explain(
                        f"cancelled a statement (statement_timeout {self.statement_timeout:g} s)", error
                    )
                    break
                if not (isinstance(error, psycopg.OperationalError) and (conn.broken or conn.closed)):
                    raise error
                failure = self._explain("dropped the connection twice", error)
                self._discard()
            # outside the except: the driver's error is neither cause nor context (see _connection)
            raise ArchiveUnavailable(failure)

    def _migrate(self, conn: psycopg.Connection) -> None:
        """In one transaction under an advisory lock: a process opening the database at the
        same moment waits for the lock, then finds the versions applied. DDL is
        transactional in PostgreSQL: a failed migration leaves nothing behind."""
        with conn.transaction():
            conn.execute("select pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            # looked up rather than "create table if not exists", which needs the right to create
            # tables even when they exist: a role that may only read and write opens a migrated database
            found = conn.execute("select to_regclass(%s)", (VERSION_TABLE,)).fetchone()
            if found is None or found[0] is None:
                conn.execute(
                    f"create table {VERSION_TABLE} "
                    "(version integer primary key, applied timestamptz not null default now())"
                )
            applied = [v for (v,) in conn.execute(f"select version from {VERSION_TABLE}")]
            for version, statements in pending(self.dialect, applied, self.where):
                for statement in statements:
                    conn.execute(statement)
                conn.execute(f"insert into {VERSION_TABLE} (version) values (%s)", (version,))

    def add(self, rows: list[JobRow]) -> None:
        def work(conn: psycopg.Connection) -> None:
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(
                    "insert into archived_jobs (id, state, owner, ended, record) values (%s, %s, %s, %s, %s)"
                    " on conflict (id) do update set state = excluded.state, owner = excluded.owner,"
                    " ended = excluded.ended, record = excluded.record",
                    rows,
                )

        self._run(work)

    def record(self, job_id: int) -> str | None:
        row = self._run(
            lambda conn: conn.execute("select record from archived_jobs where id = %s", (job_id,)).fetchone()
        )
        return row[0] if row else None

    def records(self, state: str | None, owner: str | None, limit: int) -> list[str]:
        where, params = [], []
        if state is not None:
            where.append("state = %s")
            params.append(state)
        if owner is not None:
            where.append("owner = %s")
            params.append(owner)
        clause = ("where " + " and ".join(where)) if where else ""
        rows = self._run(
            lambda conn: conn.execute(
                f"select record from archived_jobs {clause} order by id desc limit %s", (*params, limit)
            ).fetchall()
        )
        return [record for (record,) in rows]

    def put_result(self, job_id: int, run: int, data: bytes) -> None:
        # %b: the bytes go out as they are, no hex text twice their size
        self._run(
            lambda conn: conn.execute(
                "insert into archived_results (job_id, run, data) values (%s, %s, %b)"
                " on conflict (job_id, run) do update set data = excluded.data",
                (job_id, run, data),
            )
        )

    def get_result(self, job_id: int, run: int) -> bytes | None:
        def work(conn: psycopg.Connection) -> bytes | None:
            # binary: the bytes as stored; the cursor's close frees libpq's copy at once
            with conn.cursor(binary=True) as cur:
                row = cur.execute(
                    "select data from archived_results where job_id = %s and run = %s", (job_id, run)
                ).fetchone()
            return row[0] if row else None

        return self._run(work)

    def drop_results(self, job_id: int, except_run: int | None) -> None:
        if except_run is None:
            self._run(lambda conn: conn.execute("delete from archived_results where job_id = %s", (job_id,)))
        else:
            self._run(
                lambda conn: conn.execute(
                    "delete from archived_results where job_id = %s and run <> %s", (job_id, except_run)
                )
            )

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._discard()
