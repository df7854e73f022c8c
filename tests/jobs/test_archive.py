"""Finished jobs leave ZooKeeper for the archive and stay queryable (guarantee 8);
workers write results straight into it. One contract, two databases: every
test taking ``target`` or ``archive`` runs on a SQLite file and on a real
PostgreSQL server (``postgres``/``pg_url`` in tests/conftest.py)."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import traceback
from contextlib import closing
from pathlib import Path

import psycopg
import pytest
from kazoo.client import KazooClient

from qlgate.jobs.archive import Archive, ArchiveUnavailable, ResultTooLarge, SchemaTooNew
from qlgate.jobs.archive_pg import KEEPALIVES_IDLE_S, TCP_USER_TIMEOUT_MS
from qlgate.jobs.archive_schema import MIGRATIONS
from qlgate.jobs.model import Job, JobError, JobNotFound, JobSpec
from qlgate.jobs.zk.client import ZkJobs
from qlgate.jobs.zk.layout import Layout, encode, mark_finished
from qlgate.jobs.zk.limiter import Limiter
from qlgate.jobs.zk.session import zk_client
from qlgate.jobs.zk.worker import Worker
from tests.netproxy import Proxy
from tests.servers.postgres import LocalPostgres

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["sqlite", "postgres"])
def target(request, tmp_path) -> str:
    """Where an archive lives: a URL naming a fresh SQLite file or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path}/archive.sqlite"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def archive(target):
    with Archive.open(target) as archive:
        yield archive


def finished(job_id: int, *, state: str = "done", owner: str | None = None, **fields) -> Job:
    return Job(id=job_id, script="return 1", types=["t"], state=state, owner=owner, ended=time.time(), **fields)


def query(target: str, statement: str) -> list[tuple]:
    """Straight to the database, past the archive: what it really holds (or a change behind its back)."""
    if target.startswith("sqlite://"):
        with closing(sqlite3.connect(target.removeprefix("sqlite://"))) as db, db:
            return db.execute(statement).fetchall()
    with psycopg.connect(target, autocommit=True) as conn:
        cursor = conn.execute(statement)
        return cursor.fetchall() if cursor.description else []


# ------------------------------------------------------------------ jobs


def test_jobs_are_found_by_id_and_listed_newest_first(archive):
    archive.add([finished(1), finished(2, state="failed", error="boom"), finished(3, result={"n": [1, "\ud800"]})])

    assert archive.get(3).result == {"n": [1, "\ud800"]}  # a lone surrogate survives, as an escape
    assert archive.get(2).error == "boom"
    assert archive.get(4) is None
    assert archive.get(2**70) is None  # no job, rather than an overflow
    assert [j.id for j in archive.list()] == [3, 2, 1]
    assert [j.id for j in archive.list("done")] == [3, 1]
    assert [j.id for j in archive.list(limit=2)] == [3, 2]
    assert archive.list("cancelled") == []


def test_jobs_are_listed_by_owner(archive):
    archive.add(
        [finished(1, owner="alice"), finished(2, owner="bob"), finished(3, owner="alice", state="failed"), finished(4)]
    )

    assert [j.id for j in archive.list(owner="alice")] == [3, 1]
    assert [j.id for j in archive.list("done", owner="alice")] == [1]
    assert [j.id for j in archive.list(owner="carol")] == []
    assert [j.id for j in archive.list()] == [4, 3, 2, 1]  # no owner given: everyone's


def test_archiving_a_job_again_keeps_one_row(archive, target):
    """A master that died between archiving and deleting the znodes archives them again."""
    archive.add([finished(1, owner="alice"), finished(2)])
    archive.add([finished(1, owner="bob", state="failed")])  # the newer record wins
    archive.add([])

    assert [(j.id, j.state, j.owner) for j in archive.list()] == [(2, "done", None), (1, "failed", "bob")]
    assert archive.list(owner="alice") == []
    assert query(target, "select count(*) from archived_jobs") == [(2,)]


def test_threads_share_one_archive(archive):
    errors = []

    def work(base: int) -> None:
        try:
            for n in range(20):
                job_id = base * 100 + n + 1
                archive.add([finished(job_id)])
                archive.put_result(job_id, 1, b'{"n": %d}' % job_id)
                assert archive.get(job_id).id == job_id
                assert archive.get_result(job_id, 1) == b'{"n": %d}' % job_id
        except Exception as error:  # noqa: BLE001 — reported below, with the thread's own
            errors.append(error)

    threads = [threading.Thread(target=work, args=(base,)) for base in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(archive.list()) == 80


# ------------------------------------------------------------------ results


def test_results_are_put_read_replaced_and_dropped(archive):
    assert archive.get_result(1, 1) is None
    archive.put_result(1, 1, b'{"first": true}')
    archive.put_result(1, 1, b'{"again": true}')  # the same run writes again: replaced
    archive.put_result(1, 2, b"[]")
    archive.put_result(2, 1, bytes(range(256)))  # bytes as they are, not text
    assert archive.get_result(1, 1) == b'{"again": true}'
    assert archive.get_result(2, 1) == bytes(range(256))

    archive.drop_results(1, except_run=2)  # run 1 lost its job: its row goes
    assert (archive.get_result(1, 1), archive.get_result(1, 2)) == (None, b"[]")
    archive.drop_results(1)
    assert archive.get_result(1, 2) is None
    assert archive.get_result(2, 1) == bytes(range(256))  # other jobs keep theirs


def test_a_result_over_the_limit_is_refused(target):
    with Archive.open(target, max_result_bytes=1000) as archive:
        archive.put_result(1, 1, b"x" * 1000)
        with pytest.raises(ResultTooLarge, match="1,001 bytes"):
            archive.put_result(1, 2, b"x" * 1001)
        assert archive.get_result(1, 2) is None
        with pytest.raises(TypeError):
            archive.put_result(1, 3, '{"text": "not bytes"}')


@pytest.mark.large
def test_a_50_mb_result_goes_in_and_out_in_a_couple_of_copies(target):
    """In another process, so its peak memory counts this result alone: writing holds
    the caller's bytes and the driver's buffer, reading the driver's and the caller's."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.jobs.archive_child", "large", target, "50"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    size_mib = report["bytes"] / 2**20
    assert report["same"] and size_mib > 49
    assert report["put_mib"] < 2.5 * size_mib
    assert report["get_mib"] < 2.5 * size_mib


# ------------------------------------------------------------------ schema


def test_an_archive_from_before_the_schema_table_migrates_with_its_rows(tmp_path):
    path = tmp_path / "archive.sqlite"
    with sqlite3.connect(path) as db:  # what Archive wrote until now
        db.executescript("""
            create table archived_jobs (id integer primary key, state text not null, ended real, record text not null);
            create index archived_by_state on archived_jobs (state, id);
        """)
        db.executemany(
            "insert into archived_jobs values (?, ?, ?, ?)",
            [
                (j.id, j.state, j.ended, json.dumps(j.to_dict()))
                for j in (finished(1, owner="alice"), finished(2, state="failed"))
            ],
        )
    db.close()

    with Archive(path) as archive:
        assert [(j.id, j.owner) for j in archive.list()] == [(2, None), (1, "alice")]
        assert [j.id for j in archive.list(owner="alice")] == [1]
        archive.put_result(1, 1, b"{}")
    assert query(f"sqlite://{path}", "select version from qlgate_schema order by version") == [(1,), (2,)]
    with Archive(path) as archive:  # opening again changes nothing
        assert archive.get_result(1, 1) == b"{}"


def test_two_processes_opening_a_fresh_database_at_once_migrate_it_once(target):
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.jobs.archive_child", "open", target],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for child in children:
            assert child.stdout.readline() == "ready\n", child.stderr.read()
        for child in children:  # both go at the same moment
            child.stdin.write("go\n")
            child.stdin.flush()
        for child in children:
            out, err = child.communicate(timeout=30)
            assert (child.returncode, out) == (0, "opened\n"), err
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    dialect = "sqlite" if target.startswith("sqlite") else "postgresql"
    versions = query(target, "select version from qlgate_schema order by version")
    assert versions == [(v,) for v in range(1, len(MIGRATIONS[dialect]) + 1)]


def test_a_database_migrated_by_a_newer_qlgate_is_refused(target):
    Archive.open(target).close()
    query(target, "insert into qlgate_schema (version) values (999)")
    with pytest.raises(SchemaTooNew, match="version 999") as refused:
        Archive.open(target)
    assert refused.value.found == 999


def test_a_role_that_may_only_read_and_write_opens_a_migrated_database(postgres, pg_url):
    """An operator migrates with an owner's role and runs the cluster with a lesser one."""
    Archive.open(pg_url).close()
    dbname = pg_url.rsplit("/", 1)[1]
    query(
        pg_url,
        f"create role {dbname}_rw login password 'rw-password';"
        f"grant select, insert, update, delete on all tables in schema public to {dbname}_rw",
    )
    try:
        with Archive.open(f"postgresql://{dbname}_rw:rw-password@127.0.0.1:{postgres.port}/{dbname}") as archive:
            archive.add([finished(1)])
            archive.put_result(1, 1, b"{}")
            assert archive.get(1).id == 1
    finally:
        query(pg_url, f"drop owned by {dbname}_rw; drop role {dbname}_rw")


# ------------------------------------------------------------------ URLs and connections


def test_a_path_a_sqlite_url_and_a_path_object_open_the_same_file(tmp_path):
    path = tmp_path / "sub" / "archive.sqlite"
    with Archive(str(path)) as archive:
        archive.add([finished(7)])
    for target in (path, f"sqlite://{path}"):
        with Archive.open(target) as archive:
            assert archive.dialect == "sqlite" and archive.get(7).id == 7
    with pytest.raises(ArchiveUnavailable, match="sqlite:///absolute/path"):
        Archive.open("sqlite://relative/archive.sqlite")
    with pytest.raises(ArchiveUnavailable, match="mysql://") as refused:
        Archive.open("mysql://qlgate:hunter2@db/jobs")
    assert "hunter2" not in str(refused.value)


def test_a_password_never_shows_in_messages(postgres, pg_url):
    with Archive.open(pg_url) as archive:
        assert postgres.password not in repr(archive)
        assert (
            repr(archive) == f"<Archive postgresql://postgres:***@127.0.0.1:{postgres.port}/{pg_url.rsplit('/', 1)[1]}>"
        )

    secret = "s3cret-Pa%2Fss"  # percent-encoded, as URLs spell '/'
    dbname = pg_url.rsplit("/", 1)[1]
    for url, why in [
        (f"postgresql://postgres:{secret}@127.0.0.1:{postgres.port}/{dbname}", "password authentication failed"),
        (f"postgres://postgres:{secret}@127.0.0.1:1/{dbname}", "refused"),
        (f"postgresql://postgres@127.0.0.1:{postgres.port}/{dbname}?password={secret}", "password authentication"),
        (f"postgresql://postgres:{secret}@[::1/{dbname}", "IPv6"),  # not a URL: libpq's error quotes it
    ]:
        with pytest.raises(ArchiveUnavailable, match=why) as refused:
            Archive.open(url)
        shown = str(refused.value)
        assert dbname in shown and "s3cret" not in shown, shown
        assert "s3cret" not in "".join(traceback.format_exception(refused.value))
        assert refused.value.__context__ is None  # no driver error rides along


def test_a_dropped_connection_is_made_again(postgres, pg_url):
    with Archive.open(pg_url) as archive:
        archive.add([finished(1)])
        with psycopg.connect(postgres.url(), autocommit=True) as admin:
            admin.execute(
                "select pg_terminate_backend(pid) from pg_stat_activity where datname = %s", (pg_url.rsplit("/", 1)[1],)
            )
        assert archive.get(1).id == 1  # one retry, on a new connection
        archive.add([finished(2)])
        assert query(pg_url, "select count(*) from pg_stat_activity where application_name = 'qlgate-archive'") == [
            (1,)
        ]


# ------------------------------------------------------------------ no call waits for good


def archive_backends(url: str) -> list[tuple]:
    """The archive's server processes in the database of ``url``: (pid,) each."""
    return query(
        url,
        "select pid from pg_stat_activity where application_name = 'qlgate-archive'"
        f" and datname = '{url.rsplit('/', 1)[1]}'",
    )


def test_a_statement_that_waits_too_long_is_cancelled_and_the_connection_kept(pg_url):
    """The server's own bound: a result whose row another transaction holds waits
    statement_timeout, then fails typed; the connection lives on for the next call."""
    with Archive.open(pg_url, statement_timeout=0.5) as archive:
        archive.put_result(1, 1, b"{}")
        before = archive_backends(pg_url)
        with psycopg.connect(pg_url) as holder:  # a transaction that keeps the row
            holder.execute("select 1 from archived_results where job_id = 1 for update")
            started = time.monotonic()
            with pytest.raises(ArchiveUnavailable, match=r"cancelled a statement \(statement_timeout 0.5 s\)"):
                archive.put_result(1, 1, b"[]")
            # it waited the server's 0.5 s, not failing at once, and ended before the
            # client's own deadline; the server times it on its wall clock, which has been
            # seen 0.4 ms short of this monotonic one, hence 0.49
            assert 0.49 <= time.monotonic() - started < 1.5
        archive.put_result(1, 1, b"[]")
        assert archive.get_result(1, 1) == b"[]"
        assert archive_backends(pg_url) == before  # the same connection throughout


def test_a_database_that_goes_quiet_mid_statement_fails_the_call_within_its_bound(postgres, pg_url):
    """A partition, or a frozen server whose kernel still acknowledges every byte: TCP
    sees nothing wrong and the server's answer never comes. The archive's own deadline
    (statement_timeout + 1 s) drops the connection, the call fails typed, and the
    archive's lock is free again: other threads are not stuck behind it."""
    with Proxy("127.0.0.1", postgres.port) as proxy:
        through_proxy = pg_url.replace(f"@127.0.0.1:{postgres.port}/", f"@{proxy.address}/")
        with Archive.open(through_proxy, statement_timeout=0.5) as archive:
            archive.put_result(1, 1, b"{}")
            outcome: list[BaseException | None] = []
            with psycopg.connect(pg_url) as holder:  # the statement waits at the server …
                holder.execute("select 1 from archived_results where job_id = 1 for update")
                started = time.monotonic()
                writer = threading.Thread(
                    target=lambda: outcome.append(_raised(archive.put_result, 1, 1, b"x" * 1_000_000))
                )
                writer.start()
                time.sleep(0.2)
                proxy.silence()  # … when the network goes quiet
            writer.join(10)
            took = time.monotonic() - started
            assert not writer.is_alive(), "put_result hung"
            [error] = outcome
            assert isinstance(error, ArchiveUnavailable), error
            assert "did not answer within 1.5 s" in str(error) and error.__context__ is None
            assert postgres.password not in str(error)
            assert 1.5 <= took < 3.5
            proxy.heal()  # back: the next call reconnects
            archive.put_result(1, 2, b"[]")
            assert archive.get_result(1, 2) == b"[]"


def _raised(call, *args) -> BaseException | None:
    try:
        call(*args)
    except BaseException as error:  # noqa: BLE001 - handed to the test
        return error
    return None


def test_the_archives_connection_is_watched_by_keepalives_a_user_timeout_and_statement_timeout(pg_url):
    """What notices a host that died silently: read off the socket libpq opened, and
    the session's setting (both reached through the store's one connection)."""
    with Archive.open(pg_url) as archive:
        conn = archive._store._conn
        with socket.socket(fileno=os.dup(conn.fileno())) as sock:
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == KEEPALIVES_IDLE_S
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == TCP_USER_TIMEOUT_MS
        assert conn.execute("show statement_timeout").fetchone() == ("1min",)
    with pytest.raises(ValueError, match="statement_timeout"):
        Archive.open(pg_url, statement_timeout=0)


def test_local_postgres_starts_stops_and_keeps_its_data():
    with LocalPostgres() as server:
        assert server.running
        url = server.create_database("jobs")
        archive = Archive.open(url)
        archive.add([finished(1)])
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            assert server.data.owner() == "postgres"

        server.stop()  # an outage: a typed error, quickly
        started = time.monotonic()
        with pytest.raises(ArchiveUnavailable, match="refused"):
            archive.get(1)
        assert time.monotonic() - started < 5

        server.start()  # back, with the data: the archive reconnects
        assert archive.get(1).id == 1
        archive.close()
    assert not server.dir.exists() and not server.running


# ------------------------------------------------------------------ with ZooKeeper


async def answer(job):
    return {"job": job.id, "vars": job.vars}


@pytest.fixture
def sessions(zk_hosts):
    clients = []

    def start() -> KazooClient:
        client = zk_client(zk_hosts, timeout=2.0)
        client.start(10)
        clients.append(client)
        return client

    yield start
    for client in clients:
        client.stop()
        client.close()


def test_finished_jobs_move_to_the_archive_and_stay_queryable(sessions, target):
    archive = Archive.open(target)
    limiter = Limiter(sessions(), name="l", archive=archive, keep_finished=0.3).start()
    worker = Worker(sessions(), answer, name="w", slots=2).start()
    jobs = ZkJobs(sessions(), archive=Archive.open(target))
    blind = ZkJobs(sessions())  # no archive to look in
    try:
        ids = [jobs.submit(JobSpec("return 1", types=["t"], vars={"n": i})) for i in range(5)]
        later = jobs.submit(JobSpec("return 1", types=["t"], not_before=time.time() + 3600))
        jobs.wait(ids, timeout=20)
        deadline = time.monotonic() + 15
        while set(map(int, jobs.client.get_children("/qlgate/jobs"))) != {later}:
            assert time.monotonic() < deadline, "finished jobs stayed in ZooKeeper"
            time.sleep(0.1)
        job = jobs.get(ids[2])
        assert job.state == "done" and job.result == {"job": ids[2], "vars": {"n": 2}}
        assert [j.id for j in jobs.list(state="done")] == sorted(ids, reverse=True)
        assert [j.id for j in jobs.list()] == sorted([*ids, later], reverse=True)
        assert jobs.wait([ids[0]], timeout=1)[0].state == "done"
        assert jobs.cancel(ids[1]).state == "done"  # ended already: nothing to cancel
        with pytest.raises(JobNotFound):
            blind.get(ids[0])
        assert jobs.get(later).state == "queued"  # live jobs never leave early
    finally:
        worker.stop(drain=False)
        limiter.stop()
        jobs.close()
        blind.close()
        archive.close()


def test_archiving_reads_only_the_jobs_old_enough_to_go(zk, target):
    """Ended jobs are indexed by when they ended: a pass reads the jobs of old
    buckets only, however many recent ones ZooKeeper holds."""
    layout = Layout("/qlgate")
    layout.ensure(zk)
    now = time.time()
    ended = {job_id: now - 100 if job_id <= 5 else now for job_id in range(1, 56)}  # 5 old, 50 recent
    for job_id, when in ended.items():
        job = Job(id=job_id, script="return 1", types=["t"], state="done", ended=when)
        tx = zk.transaction()
        tx.create(layout.job(job_id), encode(job.to_dict()))
        mark_finished(zk, tx, layout, job_id, when)
        assert all(r is True or isinstance(r, str) for r in tx.commit())

    reads = []
    get_async = zk.get_async
    zk.get_async = lambda path, *a, **k: (reads.append(path), get_async(path, *a, **k))[1]
    with Archive.open(target) as archive:
        limiter = Limiter(zk, name="l", archive=archive, keep_finished=60)
        limiter.is_master.set()  # as if elected: archiving is the master's work
        limiter._archive_finished(time.time())

        assert sorted(reads) == sorted(layout.job(i) for i in range(1, 6))
        assert sorted(map(int, zk.get_children(layout.jobs))) == list(range(6, 56))
        assert [j.id for j in archive.list()] == [5, 4, 3, 2, 1]


async def large_answer(job):
    """A result far over what a znode could carry (``vars.kb`` kilobytes of text)."""
    return {"job": job.id, "text": "x" * (job.vars["kb"] * 1024)}


def test_a_worker_writes_a_large_result_to_the_database_and_any_host_reads_it(sessions, target):
    """The result goes from the worker to the database, not through ZooKeeper: the job's
    record there holds its size only; a client on another host (its own connection to
    the same database) reads it back, live or archived. Over ``jobs.maxResultBytes`` the
    attempt fails with ResultTooLarge; without a database a result stays capped at 250 KB."""
    limiter = Limiter(sessions(), name="l", archive=Archive.open(target), keep_finished=0.5).start()
    worker = Worker(
        sessions(), large_answer, name="w", slots=2, archive=Archive.open(target), max_result_bytes=3 * 1024 * 1024
    ).start()
    elsewhere = ZkJobs(sessions(), archive=Archive.open(target))
    try:
        big, too_big = (
            elsewhere.submit(JobSpec("return 1", types=["t"], vars={"kb": kb}, max_attempts=1)) for kb in (2048, 4096)
        )
        done, failed = elsewhere.wait([big, too_big], timeout=20)
        assert done.state == "done" and done.result is None  # the record stays small
        assert elsewhere.load_result(done)["text"] == "x" * 2048 * 1024
        assert failed.state == "failed" and "ResultTooLarge" in failed.error and failed.result is None
        data, _ = elsewhere.client.get(f"/qlgate/jobs/{big}")
        record = json.loads(data)
        assert record["result"] is None and record["result_bytes"] > 2 * 1024 * 1024
        assert len(data) < 10_000  # the record stays small
        blind = ZkJobs(sessions())
        assert blind.get(big).state == "done"  # its record, from anywhere
        with pytest.raises(JobError, match="cluster's database"):
            blind.load_result(blind.get(big))  # a client with no database says why
        deadline = time.monotonic() + 15
        while elsewhere.client.exists(f"/qlgate/jobs/{big}") is not None:
            assert time.monotonic() < deadline, "the job was not archived"
            time.sleep(0.1)
        assert elsewhere.load_result(elsewhere.get(big))["text"] == "x" * 2048 * 1024  # archived: still whole
    finally:
        worker.stop(drain=False)
        limiter.stop()
        elsewhere.close()
