"""Finished jobs leave ZooKeeper for the archive and stay queryable (guarantee 8)."""

from __future__ import annotations

import time

import pytest
from kazoo.client import KazooClient

from qlgate.jobs.archive import Archive
from qlgate.jobs.model import Job, JobNotFound
from qlgate.jobs.zk.client import ZkJobs
from qlgate.jobs.zk.layout import Layout, encode, mark_finished
from qlgate.jobs.zk.limiter import Limiter
from qlgate.jobs.zk.session import zk_client
from qlgate.jobs.zk.worker import Worker


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


def test_finished_jobs_move_to_the_archive_and_stay_queryable(sessions, tmp_path):
    archive = Archive(tmp_path / "archive.sqlite")
    limiter = Limiter(sessions(), name="l", archive=archive, keep_finished=0.3).start()
    worker = Worker(sessions(), answer, name="w", slots=2).start()
    jobs = ZkJobs(sessions(), archive=Archive(tmp_path / "archive.sqlite"))
    blind = ZkJobs(sessions())                                   # no archive to look in
    try:
        ids = [jobs.submit("return 1", types=["t"], vars={"n": i}) for i in range(5)]
        later = jobs.submit("return 1", types=["t"], not_before=time.time() + 3600)
        jobs.wait(ids, timeout=20)
        deadline = time.monotonic() + 15
        while set(map(int, jobs.client.get_children("/qlgate/jobs"))) != {later}:
            assert time.monotonic() < deadline, "finished jobs stayed in ZooKeeper"
            time.sleep(0.1)
        job = jobs.get(ids[2])
        assert job.state == "done" and job.result == {"job": ids[2], "vars": {"n": 2}}
        assert [j.id for j in jobs.list(state="done")] == sorted(ids, reverse=True)
        assert [j.id for j in jobs.list()] == sorted(ids + [later], reverse=True)
        assert jobs.wait([ids[0]], timeout=1)[0].state == "done"
        assert jobs.cancel(ids[1]).state == "done"                # ended already: nothing to cancel
        with pytest.raises(JobNotFound):
            blind.get(ids[0])
        assert jobs.get(later).state == "queued"                  # live jobs never leave early
    finally:
        worker.stop(drain=False)
        limiter.stop()
        jobs.close()
        blind.close()


def test_archiving_reads_only_the_jobs_old_enough_to_go(zk, tmp_path):
    """Ended jobs are indexed by when they ended: a pass reads the jobs of old
    buckets only, however many recent ones ZooKeeper holds."""
    layout = Layout("/qlgate")
    layout.ensure(zk)
    now = time.time()
    ended = {job_id: now - 100 if job_id <= 5 else now for job_id in range(1, 56)}   # 5 old, 50 recent
    for job_id, when in ended.items():
        job = Job(id=job_id, script="return 1", types=["t"], state="done", ended=when)
        tx = zk.transaction()
        tx.create(layout.job(job_id), encode(job.to_dict()))
        mark_finished(zk, tx, layout, job_id, when)
        assert all(r is True or isinstance(r, str) for r in tx.commit())

    reads = []
    get_async = zk.get_async
    zk.get_async = lambda path, *a, **k: (reads.append(path), get_async(path, *a, **k))[1]
    archive = Archive(tmp_path / "archive.sqlite")
    limiter = Limiter(zk, name="l", archive=archive, keep_finished=60)
    limiter.is_master.set()          # as if elected: archiving is the master's work
    limiter._archive_finished(time.time())

    assert sorted(reads) == sorted(layout.job(i) for i in range(1, 6))
    assert sorted(map(int, zk.get_children(layout.jobs))) == list(range(6, 56))
    assert [j.id for j in archive.list()] == [5, 4, 3, 2, 1]
