"""The contract both job backends keep — embedded (SQLite, in-process) and
ZooKeeper (workers and limiter candidates each with a session of their own) —
tested with jobs calling a partner API that counts its own concurrent calls.

The contract is ``qlgate.jobs.backend.JobBackend``: the tests below reach each
backend through it alone, and mypy checks this file and both backends against
it (the last test), so an operation one backend offers and the other lacks, or
whose signature drifted, fails here rather than in the gateway."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest
from kazoo.client import KazooClient

from qlgate.engine.engine import Engine
from qlgate.jobs.backend import JobBackend, JobClient
from qlgate.jobs.local import LocalJobs
from qlgate.jobs.model import FINAL_MARK, JobError, JobNotFound, JobSpec, QueueFull
from qlgate.jobs.rest_client import GatewayJobs
from qlgate.jobs.runner import EngineRunner
from qlgate.jobs.types import job_types
from qlgate.jobs.zk.client import ZkJobs
from qlgate.jobs.zk.limiter import Limiter
from qlgate.jobs.zk.session import zk_client
from qlgate.jobs.zk.worker import Worker
from qlgate.limits.open import cluster_limits, host_limits
from qlgate.limits.rate import Rate
from tests.jobs.observer import TABLES

ROOT = Path(__file__).resolve().parents[2]


def call(kind: str, ms: int = 100, job: str = "x") -> str:
    return f'return select * from partner.{kind}.call where ms = "{ms}" and job = "{job}"'


T = TypeVar("T")


def known(value: T | None) -> T:
    """A record's field the test expects set by now (a time, an error)."""
    assert value is not None
    return value


class Harness(Protocol):
    """A backend with what runs its jobs: ``run`` starts the runners, ``close`` stops all."""

    @property
    def jobs(self) -> JobBackend: ...

    def run(self, workers: int = ..., slots: int = ...) -> None: ...

    def close(self) -> None: ...


@pytest.fixture
def tables(tmp_path: Path) -> Path:
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "partner.ql").write_text(TABLES)
    return tmp_path / "tables"


class ZooKeeperCluster:
    """Workers and limiter candidates, each with its own ZooKeeper session."""

    def __init__(self, hosts: str, tables: Path, base: str):
        self.hosts, self.tables, self.base = hosts, tables, base
        self.clients: list[KazooClient] = []
        self.workers: list[Worker] = []
        self.limiters: list[Limiter] = []
        self.jobs = ZkJobs(self.session())

    def session(self) -> KazooClient:
        client = zk_client(self.hosts, timeout=2.0)
        client.start(10)
        self.clients.append(client)
        return client

    def run(self, workers: int = 2, slots: int = 4) -> None:
        for i in range(workers):
            self.limiters.append(Limiter(self.session(), name=f"l{i}").start())
            config = {"base": self.base}
            session = self.session()
            # every call of a run counts, cluster-wide
            engine = Engine(tables=self.tables, config=config, limits=cluster_limits(config, session))
            runner = EngineRunner(engine)
            self.workers.append(Worker(session, runner, name=f"w{i}", slots=slots).start())

    def close(self) -> None:
        for worker in self.workers:
            worker.stop(drain=False)
        for limiter in self.limiters:
            limiter.stop()
        self.jobs.close()
        for client in self.clients:
            client.stop()
            client.close()


class EmbeddedBackend:
    """The gateway's in-process backend, its loop in a thread of its own."""

    def __init__(self, path: Path, tables: Path, base: str):
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.path = path
        self.jobs = LocalJobs(path)
        config = {"base": base}
        # every call of a run counts, on this host
        self.engine = Engine(tables=tables, config=config, limits=host_limits(config, path))
        self.jobs.runner = EngineRunner(self.engine)

    def run(self, workers: int = 1, slots: int = 4) -> None:
        self.jobs.slots = workers * slots
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(5)

    async def _start(self) -> None:
        self.jobs.start()

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.jobs.stop(), self.loop).result(10)
        asyncio.run_coroutine_threadsafe(self.engine.close(), self.loop).result(10)
        self.jobs.close()
        self.loop.call_soon_threadsafe(self.loop.stop)


@pytest.fixture(params=["embedded", "zookeeper"])
def backend(request: pytest.FixtureRequest, tmp_path: Path, tables: Path, observer: Any) -> Iterator[Harness]:
    built: Harness
    if request.param == "zookeeper":
        built = ZooKeeperCluster(request.getfixturevalue("zk_hosts"), tables, observer.base)
    else:
        built = EmbeddedBackend(tmp_path / "jobs.sqlite", tables, observer.base)
    yield built
    built.close()


@pytest.fixture
def jobs(backend: Harness) -> JobBackend:
    return backend.jobs


def test_both_backends_keep_the_protocol_at_run_time(jobs: JobBackend) -> None:
    assert isinstance(jobs, JobBackend) and isinstance(jobs, JobClient)


def test_the_gateway_client_is_a_job_client_and_no_backend() -> None:
    """Through a gateway's REST API a client may do what a user may, not see the machinery."""
    client = GatewayJobs("http://127.0.0.1:1")
    assert isinstance(client, JobClient) and not isinstance(client, JobBackend)


def test_types_are_the_partner_apis_a_script_touches(tables: Path) -> None:
    engine = Engine(tables=tables, config={"base": "http://127.0.0.1:1"})
    script = 'a = select * from a.call where ms = "1";\nreturn select * from partner.c.call where ms = "{a}"'
    assert job_types(engine, script) == ["partner.a", "partner.c"]
    with pytest.raises(JobError, match="does not compile"):
        job_types(engine, "return selec 1")


def test_limits_hold_and_every_job_ends(backend: Harness, jobs: JobBackend, observer: Any) -> None:
    jobs.set_limit("partner.a", 2)
    jobs.set_limit("partner.b", 3)
    labels = {}
    for kind, count, ms in (("a", 8, 150), ("b", 9, 150), ("c", 6, 50)):
        for i in range(count):
            labels[jobs.submit(JobSpec(call(kind, ms, f"{kind}{i}"), types=[f"partner.{kind}"]))] = f"{kind}{i}"
    ids = list(labels)
    backend.run(workers=2, slots=4)
    finished = jobs.wait(ids, timeout=60)
    assert [j.state for j in finished] == ["done"] * len(ids)
    assert {j.id: j.result["job"] for j in finished} == labels
    assert observer.max_in_flight["partner.a"] == 2  # reached, never passed
    assert observer.max_in_flight["partner.b"] == 3
    assert observer.max_in_flight["partner.c"] <= 8  # unlimited: only the 8 slots bound it
    assert jobs.running_runs() == []
    assert {t: v["running"] for t, v in jobs.limits().items()} == {"partner.a": 0, "partner.b": 0}
    assert jobs.master() is not None


def test_limits_show_each_types_limit_and_who_waits_for_it(jobs: JobBackend) -> None:
    jobs.set_limit("partner.a", 0)  # shut: everything waits
    for _ in range(2):
        jobs.submit(JobSpec(call("a"), types=["partner.a"]))
    jobs.submit(JobSpec(call("a"), types=["partner.a", "partner.b"]))
    cancelled = jobs.submit(JobSpec(call("b"), types=["partner.b"]))
    jobs.cancel(cancelled)
    assert jobs.limits() == {
        "partner.a": {"limit": 0, "running": 0, "waiting": 3},
        "partner.b": {"limit": None, "running": 0, "waiting": 1},
    }


def test_a_job_of_two_types_needs_a_slot_of_each(backend: Harness, jobs: JobBackend, observer: Any) -> None:
    jobs.set_limit("partner.a", 1)
    script = (
        'x = select * from partner.a.call where ms = "200" and job = "ab";\n'
        'return select * from partner.b.call where ms = "200" and job = "{x.job}"'
    )
    both = jobs.submit(JobSpec(script, types=["partner.a", "partner.b"]))
    only_a = jobs.submit(JobSpec(call("a", 50, "a"), types=["partner.a"]))
    backend.run(workers=1, slots=4)
    done = {j.id: j for j in jobs.wait([both, only_a], timeout=30)}
    assert done[both].state == done[only_a].state == "done"
    assert observer.max_in_flight["partner.a"] == 1
    assert known(done[only_a].started) >= known(done[both].ended) - 0.05  # it waited for the one slot of partner.a


def test_priority_first_then_submission_order(backend: Harness, jobs: JobBackend, observer: Any) -> None:
    low = [jobs.submit(JobSpec(call("a", 10, f"low{i}"), types=["partner.a"], priority=-5)) for i in range(3)]
    normal = [jobs.submit(JobSpec(call("a", 10, f"n{i}"), types=["partner.a"])) for i in range(3)]
    high = [jobs.submit(JobSpec(call("a", 10, f"high{i}"), types=["partner.a"], priority=10)) for i in range(3)]
    backend.run(workers=1, slots=1)
    jobs.wait(low + normal + high, timeout=30)
    order = [job for _, _, job in sorted(observer.started)]
    assert order == ["high0", "high1", "high2", "n0", "n1", "n2", "low0", "low1", "low2"]


def test_a_not_before_job_waits_until_due(backend: Harness, jobs: JobBackend, observer: Any) -> None:
    backend.run(workers=1)
    due = time.time() + 1.5
    later = jobs.submit(JobSpec(call("a", 10, "later"), types=["partner.a"], not_before=due))
    now = jobs.submit(JobSpec(call("a", 10, "now"), types=["partner.a"]))
    jobs.wait([now], timeout=10)
    assert jobs.get(later).state == "queued"
    (job,) = jobs.wait([later], timeout=10)
    assert job.state == "done" and known(job.started) >= due


def test_failed_attempts_are_retried_then_the_job_fails_with_each_error(backend: Harness, jobs: JobBackend) -> None:
    backend.run(workers=1)
    job_id = jobs.submit(JobSpec("return select * from partner.broken.call", types=["partner.broken"], max_attempts=3))
    (job,) = jobs.wait([job_id], timeout=20)
    assert job.state == "failed" and job.run == 3 and len(job.attempts) == 3
    assert all("503" in known(a.error) for a in job.attempts)
    assert "503" in known(job.error)


def test_a_job_an_upstream_refused_fails_at_once_with_the_error_marked_final(
    backend: Harness, jobs: JobBackend
) -> None:
    """A 4xx comes again on every try: retrying it only spends the partner's calls."""
    backend.run(workers=1)
    script = 'return select * from partner.broken.call where status = "404"'
    job_id = jobs.submit(JobSpec(script, types=["partner.broken"], max_attempts=3))
    (job,) = jobs.wait([job_id], timeout=20)
    assert job.state == "failed" and job.run == 1 and len(job.attempts) == 1
    assert "404" in known(job.error) and known(job.error).endswith(FINAL_MARK)


def test_cancel_a_queued_and_a_running_job(backend: Harness, jobs: JobBackend, observer: Any) -> None:
    jobs.set_limit("partner.a", 1)
    backend.run(workers=1)
    running = jobs.submit(JobSpec(call("a", 3000, "long"), types=["partner.a"]))
    queued = jobs.submit(JobSpec(call("a", 10, "never"), types=["partner.a"]))
    deadline = time.time() + 10
    while jobs.get(running).state != "running" and time.time() < deadline:
        time.sleep(0.02)
    assert jobs.cancel(queued).state == "cancelled"
    jobs.cancel(running)
    (job,) = jobs.wait([running], timeout=5)
    assert job.state == "cancelled" and known(job.ended) - known(job.started) < 3
    assert jobs.running_runs() == []
    assert "never" not in [j for _, _, j in observer.started]


def test_bad_submissions_are_refused_with_a_reason(jobs: JobBackend) -> None:
    with pytest.raises(JobError, match="not a job type"):
        jobs.submit(JobSpec("return 1", types=["bad/type"]))
    with pytest.raises(JobError, match="priority"):
        jobs.submit(JobSpec("return 1", types=["t"], priority=5000))
    with pytest.raises(JobError, match="max attempts"):
        jobs.submit(JobSpec("return 1", types=["t"], max_attempts=0))
    with pytest.raises(JobError, match=r"take 1[0-9,]+ bytes; a job may take 100,000"):
        jobs.submit(JobSpec("return {v}", types=["t"], vars={"v": "x" * 100_000}))
    with pytest.raises(JobNotFound):
        jobs.get(424242)


def test_a_result_too_large_to_keep_fails_the_attempt_and_the_worker_goes_on(
    backend: Harness, jobs: JobBackend
) -> None:
    backend.run(workers=1)
    big = jobs.submit(JobSpec('return "{text}"', types=["t"], vars={"text": "y" * 90_000}, max_attempts=1))
    bigger = jobs.submit(
        JobSpec('return ["{text}", "{text}", "{text}"]', types=["t"], vars={"text": "y" * 90_000}, max_attempts=1)
    )
    after = jobs.submit(JobSpec("return 1", types=["t"]))
    kept, refused, then = jobs.wait([big, bigger, after], timeout=20)
    assert kept.state == "done" and len(kept.result) == 90_000
    assert refused.state == "failed" and known(refused.error).startswith("ResultTooLarge: the result takes 270,")
    assert then.state == "done" and then.result == 1


def test_a_full_queue_answers_with_backpressure(jobs: JobBackend) -> None:
    jobs.max_queue = 3
    for _ in range(3):
        jobs.submit(JobSpec("return 1", types=["t"]))
    with pytest.raises(QueueFull) as full:
        jobs.submit(JobSpec("return 1", types=["t"]))
    assert full.value.status == 429 and full.value.retry_after > 0


def test_the_queue_bound_is_exact_under_concurrent_submissions(jobs: JobBackend) -> None:
    jobs.max_queue = 20
    accepted, refused = [], []

    def submit_six() -> None:
        for _ in range(6):
            try:
                accepted.append(jobs.submit(JobSpec("return 1", types=["t"])))
            except QueueFull:
                refused.append(1)

    threads = [threading.Thread(target=submit_six) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(accepted) == 20 and len(refused) == 28
    assert jobs.limits()["t"]["waiting"] == 20


def test_the_embedded_backend_loses_nothing_across_a_restart(tmp_path: Path, tables: Path, observer: Any) -> None:
    first = EmbeddedBackend(tmp_path / "jobs.sqlite", tables, observer.base)
    first.run(slots=1)
    cut_short = first.jobs.submit(JobSpec(call("a", 2000, "cut"), types=["partner.a"]))
    waiting = first.jobs.submit(JobSpec(call("a", 10, "waiting"), types=["partner.a"]))
    deadline = time.time() + 10
    while first.jobs.get(cut_short).state != "running":
        assert time.time() < deadline
        time.sleep(0.02)
    first.close()  # the gateway stops mid-run
    second = EmbeddedBackend(tmp_path / "jobs.sqlite", tables, observer.base)
    try:
        second.run(slots=1)
        done = second.jobs.wait([cut_short, waiting], timeout=20)
        assert [j.state for j in done] == ["done", "done"]
        assert done[0].run == 2 and "interrupted" in known(done[0].attempts[0].error)
        assert second.jobs.submit(JobSpec("return 1", types=["t"])) > waiting  # ids are never reused
    finally:
        second.close()


def test_a_call_rate_holds_across_every_job_of_the_type(backend: Harness, jobs: JobBackend, observer: Any) -> None:
    jobs.set_rate("partner.a", Rate(8, "second"))
    assert jobs.rates() == {"partner.a": Rate(8, "second")}
    five = 'return select * from partner.a.call where ms = "5" and job in ("{n}-1", "{n}-2", "{n}-3", "{n}-4", "{n}-5")'
    ids = [jobs.submit(JobSpec(five, types=["partner.a"], vars={"n": f"j{i}"})) for i in range(6)]
    backend.run(workers=2, slots=3)
    started = time.time()
    finished = jobs.wait(ids, timeout=30)
    assert [j.state for j in finished] == ["done"] * 6
    calls = [t for t, kind, _ in observer.started if kind == "partner.a"]
    assert len(calls) == 30
    per_second: dict[int, int] = {}
    for t in calls:
        per_second[int(t)] = per_second.get(int(t), 0) + 1
    assert max(per_second.values()) <= 8  # counted by the partner, per clock second
    assert len(per_second) >= 4  # 30 calls at 8/s need four windows
    assert time.time() - started >= 2.0
    jobs.set_rate("partner.a", None)
    assert jobs.rates() == {}


def test_a_submission_retried_under_its_idempotency_key_queues_one_job(backend: Harness, jobs: JobBackend) -> None:
    first = jobs.submit(JobSpec(call("a", 10, "keyed"), types=["partner.a"], idempotency_key="order-42", owner="shop"))
    again = jobs.submit(JobSpec(call("a", 10, "keyed"), types=["partner.a"], idempotency_key="order-42", owner="shop"))
    assert again == first
    # the key is the owner's: another API key choosing the same text gets a job of its own
    other = jobs.submit(JobSpec(call("a", 10, "other"), types=["partner.a"], idempotency_key="order-42", owner="blog"))
    assert other != first
    assert len(jobs.list()) == 2
    with pytest.raises(JobError, match="idempotency key"):
        jobs.submit(JobSpec(call("a"), types=["partner.a"], idempotency_key=""))


def test_mypy_finds_both_backends_keep_the_protocol(tmp_path: Path) -> None:
    """Statically: ``backend.py`` hands each backend to its Protocol (under
    TYPE_CHECKING) and this file uses them through it; mypy finds no error in either."""
    from mypy import api

    out, err, status = api.run(
        [
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path / "mypy"),
            "--no-error-summary",
            str(ROOT / "qlgate" / "jobs" / "backend.py"),
            str(Path(__file__)),
        ]
    )
    assert status == 0, out + err
