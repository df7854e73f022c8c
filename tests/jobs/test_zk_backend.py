"""The ZooKeeper job backend, in one process: workers and limiter candidates
each with a session of their own, jobs calling a partner API that counts its
own concurrent calls."""

from __future__ import annotations

import time

import pytest
from kazoo.client import KazooClient

from qlgate.engine.engine import Engine
from qlgate.jobs.model import JobError, JobNotFound, QueueFull
from qlgate.jobs.runner import EngineRunner
from qlgate.jobs.types import job_types
from qlgate.jobs.zk.client import ZkJobs
from qlgate.jobs.zk.limiter import Limiter
from qlgate.jobs.zk.worker import Worker
from tests.jobs.observer import TABLES, Observer


def call(kind: str, ms: int = 100, job: str = "x") -> str:
    return f'return select * from partner.{kind}.call where ms = "{ms}" and job = "{job}"'


@pytest.fixture
def observer():
    server = Observer().start()
    yield server
    server.stop()


@pytest.fixture
def tables(tmp_path):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "partner.ql").write_text(TABLES)
    return tmp_path / "tables"


class Cluster:
    def __init__(self, hosts: str, tables, base: str):
        self.hosts, self.tables, self.base = hosts, tables, base
        self.clients: list[KazooClient] = []
        self.workers: list[Worker] = []
        self.limiters: list[Limiter] = []

    def session(self) -> KazooClient:
        client = KazooClient(self.hosts, timeout=2.0)
        client.start(10)
        self.clients.append(client)
        return client

    def worker(self, name: str, slots: int = 4) -> Worker:
        engine = Engine(tables=self.tables, config={"base": self.base})
        worker = Worker(self.session(), EngineRunner(engine), name=name, slots=slots).start()
        self.workers.append(worker)
        return worker

    def limiter(self, name: str) -> Limiter:
        limiter = Limiter(self.session(), name=name).start()
        self.limiters.append(limiter)
        return limiter

    def close(self) -> None:
        for worker in self.workers:
            worker.stop(drain=False)
        for limiter in self.limiters:
            limiter.stop()
        for client in self.clients:
            client.stop()
            client.close()


@pytest.fixture
def cluster(zk_hosts, tables, observer):
    built = Cluster(zk_hosts, tables, observer.base)
    yield built
    built.close()


@pytest.fixture
def jobs(zk):
    client = ZkJobs(zk)
    yield client
    client.close()


def test_types_are_the_partner_apis_a_script_touches(tables):
    engine = Engine(tables=tables, config={"base": "http://127.0.0.1:1"})
    script = 'a = select * from a.call where ms = "1";\nreturn select * from partner.c.call where ms = "{a}"'
    assert job_types(engine, script) == ["partner.a", "partner.c"]
    with pytest.raises(JobError, match="does not compile"):
        job_types(engine, "return selec 1")


def test_limits_hold_across_workers_and_every_job_ends(cluster, jobs, observer):
    jobs.set_limit("partner.a", 2)
    jobs.set_limit("partner.b", 3)
    labels = {}
    for kind, count, ms in (("a", 8, 150), ("b", 9, 150), ("c", 6, 50)):
        for i in range(count):
            labels[jobs.submit(call(kind, ms, f"{kind}{i}"), types=[f"partner.{kind}"])] = f"{kind}{i}"
    ids = list(labels)
    cluster.limiter("l1")
    cluster.limiter("l2")
    cluster.worker("w1", slots=4)
    cluster.worker("w2", slots=4)
    finished = jobs.wait(ids, timeout=60)
    assert [j.state for j in finished] == ["done"] * len(ids)
    assert {j.id: j.result["job"] for j in finished} == labels
    assert observer.max_in_flight["partner.a"] == 2          # reached, never passed
    assert observer.max_in_flight["partner.b"] == 3
    assert observer.max_in_flight["partner.c"] <= 8          # unlimited: only the 8 slots bound it
    assert jobs.running_runs() == []
    assert {t: v["running"] for t, v in jobs.limits().items()} == {"partner.a": 0, "partner.b": 0, "partner.c": 0}
    assert sum(1 for limiter in cluster.limiters if limiter.is_master.is_set()) == 1


def test_a_job_of_two_types_needs_a_slot_of_each(cluster, jobs, observer):
    jobs.set_limit("partner.a", 1)
    script = ('x = select * from partner.a.call where ms = "200" and job = "ab";\n'
              'return select * from partner.b.call where ms = "200" and job = "{x.job}"')
    both = jobs.submit(script, types=["partner.a", "partner.b"])
    only_a = jobs.submit(call("a", 50, "a"), types=["partner.a"])
    cluster.limiter("l")
    cluster.worker("w", slots=4)
    done = {j.id: j for j in jobs.wait([both, only_a], timeout=30)}
    assert done[both].state == done[only_a].state == "done"
    assert observer.max_in_flight["partner.a"] == 1
    assert done[only_a].started >= done[both].ended - 0.05   # it waited for the one slot of partner.a


def test_priority_first_then_submission_order(cluster, jobs, observer):
    low = [jobs.submit(call("a", 10, f"low{i}"), types=["partner.a"], priority=-5) for i in range(3)]
    normal = [jobs.submit(call("a", 10, f"n{i}"), types=["partner.a"]) for i in range(3)]
    high = [jobs.submit(call("a", 10, f"high{i}"), types=["partner.a"], priority=10) for i in range(3)]
    cluster.limiter("l")
    cluster.worker("w", slots=1)
    jobs.wait(low + normal + high, timeout=30)
    order = [job for _, _, job in sorted(observer.started)]
    assert order == ["high0", "high1", "high2", "n0", "n1", "n2", "low0", "low1", "low2"]


def test_a_not_before_job_waits_until_due(cluster, jobs, observer):
    cluster.limiter("l")
    cluster.worker("w")
    due = time.time() + 1.5
    later = jobs.submit(call("a", 10, "later"), types=["partner.a"], not_before=due)
    now = jobs.submit(call("a", 10, "now"), types=["partner.a"])
    jobs.wait([now], timeout=10)
    assert jobs.get(later).state == "queued"
    (job,) = jobs.wait([later], timeout=10)
    assert job.state == "done" and job.started >= due


def test_failed_attempts_are_retried_then_the_job_fails_with_each_error(cluster, jobs):
    cluster.limiter("l")
    cluster.worker("w")
    job_id = jobs.submit("return select * from partner.broken.call", types=["partner.broken"], max_attempts=3)
    (job,) = jobs.wait([job_id], timeout=20)
    assert job.state == "failed" and job.run == 3 and len(job.attempts) == 3
    assert all("503" in a.error for a in job.attempts)
    assert "503" in job.error


def test_cancel_a_queued_and_a_running_job(cluster, jobs, observer):
    jobs.set_limit("partner.a", 1)
    cluster.limiter("l")
    cluster.worker("w")
    running = jobs.submit(call("a", 3000, "long"), types=["partner.a"])
    queued = jobs.submit(call("a", 10, "never"), types=["partner.a"])
    deadline = time.time() + 10
    while jobs.get(running).state != "running" and time.time() < deadline:
        time.sleep(0.02)
    assert jobs.cancel(queued).state == "cancelled"
    jobs.cancel(running)
    (job,) = jobs.wait([running], timeout=5)
    assert job.state == "cancelled" and job.ended - job.started < 3
    assert jobs.running_runs() == []
    assert "never" not in [j for _, _, j in observer.started]


def test_bad_submissions_are_refused_with_a_reason(jobs):
    with pytest.raises(JobError, match="not a job type"):
        jobs.submit("return 1", types=["bad/type"])
    with pytest.raises(JobError, match="priority"):
        jobs.submit("return 1", types=["t"], priority=5000)
    with pytest.raises(JobError, match="max attempts"):
        jobs.submit("return 1", types=["t"], max_attempts=0)
    with pytest.raises(JobNotFound):
        jobs.get(424242)


def test_a_full_queue_answers_with_backpressure(zk):
    small = ZkJobs(zk, max_queue=3)
    for _ in range(3):
        small.submit("return 1", types=["t"])
    with pytest.raises(QueueFull) as full:
        small.submit("return 1", types=["t"])
    assert full.value.status == 429 and full.value.retry_after > 0
    small.close()
