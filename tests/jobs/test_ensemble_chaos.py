"""Chaos on a real 3-node ZooKeeper ensemble (issue 14), each bounded in time:
the cluster in its production layout (two dedicated limiters, workers that run
jobs only), a partner API that counts its own calls, and one fault per test —
a worker frozen past its session, a worker cut off from ZooKeeper while the
partner stays reachable, the leader crashing under submissions, quorum lost
for 20 s, the limiter master crashing, SIGTERM with the whole ensemble down.
In every one the upstream never sees more than the limit, every job ends
exactly once, and no run sends a call once its job has gone to another run."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from qlgate.jobs.model import JobSpec
from qlgate.jobs.zk.session import zk_client
from tests.jobs.cluster import Cluster, three_calls
from tests.netproxy import ProxiedEnsemble

SESSION_S = 2.0
CALL_TIMEOUT_S = 3.0
STOP_TIMEOUT_S = 5.0


@pytest.fixture
def cluster(ensemble, tmp_path, observer):
    built = Cluster(
        ensemble.hosts,
        tmp_path,
        observer,
        session_s=SESSION_S,
        call_timeout_s=CALL_TIMEOUT_S,
        stop_timeout_s=STOP_TIMEOUT_S,
    )
    built.limiter("l1")
    built.limiter("l2")
    built.wait_for_master()
    yield built
    built.close()


def test_a_worker_frozen_past_its_session_never_calls_for_its_lost_run(cluster):
    cluster.worker("w1", slots=1)
    cluster.worker("w2", slots=1)
    cluster.jobs.set_limit("partner.a", 1)
    ids = [cluster.jobs.submit(JobSpec(three_calls(f"f{i}"), types=["partner.a"], max_attempts=5)) for i in range(4)]
    cluster.wait_for_calls(ids[0])
    victim = cluster.jobs.get(ids[0]).attempts[-1].worker
    cluster.signal(victim, signal.SIGSTOP)
    # thawed only once its run has gone to another worker: the order a late thaw could do harm in
    deadline = time.monotonic() + SESSION_S + CALL_TIMEOUT_S + 2.0 + 15
    while cluster.jobs.get(ids[0]).run < 2:
        assert time.monotonic() < deadline, "the frozen worker's run was never taken back"
        time.sleep(0.05)
    cluster.signal(victim, signal.SIGCONT)
    finished = cluster.check_every_job_ended_once(ids, kind="partner.a", limit=1, calls_per_job=3)
    first = finished[0]
    assert first.run >= 2 and "lost" in first.attempts[0].error
    assert len(cluster.observer.calls_of(ids[0], 1)) == 1  # thawed, it sent nothing more for run 1
    assert f"job {ids[0]} run 1: fenced" in cluster.log(victim)


def test_a_worker_cut_off_from_zookeeper_stops_calling_before_its_runs_are_given_away(cluster, ensemble):
    """The partition hides the worker from ZooKeeper only: the partner API still answers it.
    Its lease runs out before its session can have expired, so it aborts its runs before
    the limiter may re-grant them — the upstream never sees two runs of one slot."""
    with ProxiedEnsemble(ensemble) as proxies:
        cluster.worker("cut", slots=2, hosts=proxies.hosts)
        cluster.worker("w2", slots=2)
        cluster.jobs.set_limit("partner.a", 2)
        ids = [
            cluster.jobs.submit(JobSpec(three_calls(f"p{i}", ms=400), types=["partner.a"], max_attempts=5))
            for i in range(8)
        ]
        deadline = time.monotonic() + 20
        while not any(j.state == "running" and j.attempts[-1].worker == "cut" for j in cluster.jobs.list()):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(0.2)  # mid-call
        proxies.silence()
        cut_at = time.time()
        time.sleep(SESSION_S + CALL_TIMEOUT_S + 1)
        proxies.heal()
        finished = cluster.check_every_job_ended_once(ids, kind="partner.a", limit=2, calls_per_job=3)
    lost = [j for j in finished if any(a.worker == "cut" and a.error for a in j.attempts)]
    assert lost, "the partition cost the cut-off worker no run"
    for job in lost:
        for attempt in job.attempts:
            if attempt.worker == "cut" and attempt.error:
                calls = cluster.observer.calls_of(job.id, attempt.run)
                # nothing sent after its lease could have ended (T - T/5 after its last answered probe)
                assert all(c[0] < cut_at + SESSION_S for c in calls), (job.id, calls)
    assert "fenced" in cluster.log("cut")


def test_the_leader_crashing_under_submissions_queues_every_job_once(cluster, ensemble):
    cluster.worker("w1", slots=4)
    cluster.jobs.set_limit("partner.b", 3)
    submitter = zk_client(ensemble.hosts, timeout=SESSION_S)
    submitter.start(10)
    from qlgate.jobs.zk.client import ZkJobs

    client = ZkJobs(submitter)
    ids: list[int] = []
    errors: list[BaseException] = []

    def submit_many() -> None:
        try:
            for i in range(60):
                ids.append(
                    client.submit(
                        JobSpec(
                            f'return select * from partner.b.call where ms = "50" and job = "s{i}"',
                            types=["partner.b"],
                            idempotency_key=f"s{i}",
                        ),
                    )
                )
        except BaseException as error:  # noqa: BLE001 — reported by the test below
            errors.append(error)

    thread = threading.Thread(target=submit_many)
    thread.start()
    while len(ids) < 10 and thread.is_alive():
        time.sleep(0.01)
    ensemble.kill(ensemble.leader())
    thread.join(60)
    try:
        assert not errors, errors
        assert len(ids) == len(set(ids)) == 60
        queued = [j for j in cluster.jobs.list(limit=1000) if j.id in set(ids)]
        assert len(queued) == 60  # none twice, none lost
        cluster.check_every_job_ended_once(ids, kind="partner.b", limit=3, calls_per_job=1)
    finally:
        client.close()
        submitter.stop()
        submitter.close()


def test_quorum_lost_for_20_seconds_costs_no_session(cluster, ensemble):
    """Without a quorum no session can expire; once it is back, every client has a full
    session timeout to reconnect — which a back-off capped at 1 s makes sure of."""
    for name in ("w1", "w2"):
        cluster.worker(name, slots=2)
    sessions = {name: info for name, info in cluster.jobs.workers().items()}
    owners = {name: cluster.client.exists(f"/qlgate/workers/{name}").ephemeralOwner for name in sessions}
    cluster.jobs.set_limit("partner.c", 2)
    ids = [
        cluster.jobs.submit(JobSpec(three_calls(f"q{i}", ms=200, kind="c"), types=["partner.c"], max_attempts=5))
        for i in range(6)
    ]
    cluster.wait_for_calls(ids[0])
    leader = ensemble.leader()
    stopped = [*[i for i in range(3) if i != leader][:1], leader]
    for i in stopped:
        ensemble.stop(i)
    time.sleep(20)
    for i in stopped:
        ensemble.start_server(i)
    ensemble.wait_for_quorum(60)
    cluster.check_every_job_ended_once(ids, kind="partner.c", limit=2, calls_per_job=3)
    after = {name: cluster.client.exists(f"/qlgate/workers/{name}").ephemeralOwner for name in owners}
    assert after == owners  # the same sessions: none was lost


def test_the_limiter_master_crashing_hands_over_within_the_session_timeout(cluster):
    cluster.worker("w1", slots=3)
    cluster.worker("w2", slots=3)
    cluster.jobs.set_limit("partner.a", 2)
    ids = [cluster.jobs.submit(JobSpec(three_calls(f"m{i}", ms=150), types=["partner.a"])) for i in range(10)]
    cluster.wait_for_calls(ids[0])
    master = cluster.jobs.master()
    killed_at = cluster.signal(master, signal.SIGKILL)
    while (now := cluster.jobs.master()) in (master, None):
        assert time.time() - killed_at < SESSION_S + 5, "no standby took over"
        time.sleep(0.01)
    assert time.time() - killed_at <= SESSION_S + 1.0
    finished = cluster.check_every_job_ended_once(ids, kind="partner.a", limit=2, calls_per_job=3)
    assert all(j.run == 1 for j in finished)  # a master's death costs no run
    assert now != master


def test_sigterm_stops_a_worker_within_its_bound_with_the_whole_ensemble_down(cluster, ensemble):
    cluster.worker("w1", slots=2)
    cluster.worker("w2", slots=2)
    cluster.jobs.set_limit("partner.a", 2)
    ids = [
        cluster.jobs.submit(JobSpec(three_calls(f"t{i}", ms=300), types=["partner.a"], max_attempts=5))
        for i in range(4)
    ]
    cluster.wait_for_calls(ids[0])
    for i in range(3):
        ensemble.kill(i)
    time.sleep(0.5)
    signalled = cluster.signal("w1", signal.SIGTERM)
    cluster.procs["w1"].wait(STOP_TIMEOUT_S + 5)
    assert time.time() - signalled <= STOP_TIMEOUT_S + 1.0
    for i in range(3):
        ensemble.start_server(i)
    ensemble.wait_for_quorum(60)
    cluster.check_every_job_ended_once(ids, kind="partner.a", limit=2, calls_per_job=3)
