"""Chaos, bounded in time: real ``qlgate worker`` processes killed with SIGKILL
mid-job, the limiter master killed under load. The partner API counts its own
concurrent calls (guarantee 1); the final job records show that no job was
lost and none ran to completion twice (guarantee 2)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qlgate.jobs.archive import Archive
from qlgate.jobs.model import JobSpec
from qlgate.jobs.zk.client import ZkJobs
from tests.jobs.observer import TABLES

ROOT = Path(__file__).resolve().parents[2]
SESSION_S = 2.0
CALL_TIMEOUT_S = 5.0  # jobs.callTimeout: a lost worker's runs are re-granted this long after its session


@pytest.fixture
def setup(tmp_path, observer):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "partner.ql").write_text(TABLES)
    # the cluster's database of finished jobs and results: workers write there, clients read
    (tmp_path / "config.json").write_text(
        json.dumps(
            {
                "base": observer.base,
                "jobs": {"callTimeout": CALL_TIMEOUT_S, "database": str(tmp_path / "jobs.sqlite"), "serverLag": 0},
            }
        )
    )  # one standalone ZooKeeper: no follower can lag behind a leader
    return tmp_path


class Workers:
    def __init__(self, hosts: str, setup: Path, jobs: ZkJobs):
        self.hosts, self.setup, self.jobs = hosts, setup, jobs
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, slots: int = 2) -> subprocess.Popen:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "qlgate",
                "worker",
                "--zookeeper",
                self.hosts,
                "--tables",
                str(self.setup / "tables"),
                "--config",
                str(self.setup / "config.json"),
                "--slots",
                str(slots),
                "--name",
                name,
                "--session-timeout",
                str(SESSION_S),
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=open(self.setup / f"{name}.log", "wb"),
        )
        self.procs[name] = proc
        deadline = time.monotonic() + 20
        while name not in self.jobs.workers():
            assert proc.poll() is None, (self.setup / f"{name}.log").read_text()
            assert time.monotonic() < deadline, f"worker {name} did not register"
            time.sleep(0.05)
        return proc

    def kill(self, name: str) -> float:
        os.kill(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait(5)
        return time.time()

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


def cluster_jobs(client, setup: Path, **options) -> ZkJobs:
    """A client of the cluster that reads the workers' database too (results live there)."""
    return ZkJobs(client, archive=Archive(setup / "jobs.sqlite"), **options)


@pytest.fixture
def jobs(zk, setup):
    client = cluster_jobs(zk, setup)
    yield client
    client.close()


@pytest.fixture
def workers(zk_hosts, setup, jobs):
    started = Workers(zk_hosts, setup, jobs)
    yield started
    started.stop_all()


def call(ms: int, label: str, kind: str = "a") -> str:
    return f'return select * from partner.{kind}.call where ms = "{ms}" and job = "{label}"'


def wait_for_state(jobs: ZkJobs, job_id: int, state: str, timeout: float = 10):
    deadline = time.monotonic() + timeout
    while (job := jobs.get(job_id)).state != state:
        assert time.monotonic() < deadline, f"job {job_id} stayed {job.state}"
        time.sleep(0.02)
    return job


def test_a_worker_killed_mid_job_has_its_job_rerun_after_its_session_ends(workers, jobs, observer):
    workers.start("w1", slots=1)
    workers.start("w2", slots=1)
    job_id = jobs.submit(JobSpec(call(1500, "victim"), types=["partner.a"]))
    running = wait_for_state(jobs, job_id, "running")
    victim = running.attempts[-1].worker
    time.sleep(0.3)  # mid-call
    killed_at = workers.kill(victim)
    (job,) = jobs.wait([job_id], timeout=30)
    assert job.state == "done" and job.run == 2
    first, second = job.attempts
    assert first.worker == victim and "lost" in first.error
    assert second.worker != victim and second.error is None
    # not before the session could have ended and the worker's call deadline passed since
    assert second.started - killed_at >= SESSION_S * 0.5 + CALL_TIMEOUT_S
    assert [label for _, _, label in observer.started].count("victim") == 2
    assert jobs.running_runs() == []


def test_a_slow_but_live_worker_is_never_timed_out(workers, jobs):
    workers.start("slow", slots=1)
    job_id = jobs.submit(JobSpec(call(int(SESSION_S * 2000), "slow"), types=["partner.a"]))
    (job,) = jobs.wait([job_id], timeout=30)
    assert job.state == "done" and job.run == 1 and len(job.attempts) == 1


def test_the_master_killed_under_load_a_standby_takes_over_and_limits_hold(workers, jobs, observer):
    jobs.set_limit("partner.a", 2)
    jobs.set_limit("partner.b", 3)
    for name in ("w1", "w2", "w3"):
        workers.start(name, slots=3)
    ids = [jobs.submit(JobSpec(call(200, f"a{i}"), types=["partner.a"])) for i in range(12)]
    ids += [jobs.submit(JobSpec(call(200, f"b{i}", "b"), types=["partner.b"])) for i in range(12)]
    deadline = time.monotonic() + 10
    while observer.max_in_flight["partner.a"] < 2 or observer.max_in_flight["partner.b"] < 3:
        assert time.monotonic() < deadline, "the limits were never reached"  # under load: both at their limits
        time.sleep(0.02)
    master = jobs.master()
    assert master in workers.procs
    killed_at = workers.kill(master)
    while (now_master := jobs.master()) in (master, None):
        assert time.time() - killed_at < SESSION_S + 5, "no standby took over"
        time.sleep(0.02)
    takeover = time.time() - killed_at
    assert takeover <= SESSION_S + 1.0, f"takeover took {takeover:.2f} s"
    assert now_master != master
    finished = jobs.wait(ids, timeout=60)
    assert [j.state for j in finished] == ["done"] * len(ids)
    assert observer.max_in_flight["partner.a"] == 2
    assert observer.max_in_flight["partner.b"] == 3
    assert jobs.running_runs() == []


def test_the_command_line_submits_waits_and_reads_results(workers, jobs, setup, zk_hosts):
    workers.start("w", slots=2)
    script = setup / "job.ql"
    script.write_text('return select * from partner.c.call where ms = "20" and job = "{label}"')

    def qlgate(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "qlgate",
                "jobs",
                *args,
                "--zookeeper",
                zk_hosts,
                "--database",
                str(setup / "jobs.sqlite"),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )

    submitted = qlgate(
        "submit",
        str(script),
        "--var",
        "label=cli",
        "--priority",
        "3",
        "--tables",
        str(setup / "tables"),
        "--config",
        str(setup / "config.json"),
        "--json",
    )
    assert submitted.returncode == 0, submitted.stderr
    job_id = json.loads(submitted.stdout)["id"]
    waited = qlgate("wait", str(job_id), "--timeout", "20", "--json")
    assert waited.returncode == 0, waited.stderr
    (job,) = json.loads(waited.stdout)
    assert job["state"] == "done" and job["types"] == ["partner.c"] and job["priority"] == 3
    result = qlgate("result", str(job_id))
    assert json.loads(result.stdout) == {"type": "partner.c", "job": "cli"}
    assert "done" in qlgate("status", str(job_id)).stdout
    limited = qlgate("limits", "partner.c", "4", "--json")
    assert json.loads(limited.stdout)["partner.c"] == {"limit": 4, "running": 0, "waiting": 0}
    later = qlgate("submit", str(script), "--type", "partner.c", "--not-before", "+1h", "--json")
    later_id = json.loads(later.stdout)["id"]
    listed = json.loads(qlgate("list", "--state", "queued", "--json").stdout)
    assert [j["id"] for j in listed] == [later_id]
    assert "cancelled" in qlgate("cancel", str(later_id)).stdout
    # a type named with --type adds to those of the tables the script calls, never replaces them
    extra = qlgate("submit", str(script), "--type", "partner.extra", "--not-before", "+1h", "--json")
    extra_id = json.loads(extra.stdout)["id"]
    (queued,) = json.loads(qlgate("list", "--state", "queued", "--json").stdout)
    assert queued["id"] == extra_id and queued["types"] == ["partner.c", "partner.extra"]
    assert "cancelled" in qlgate("cancel", str(extra_id)).stdout
    missing = qlgate("status", "999999")
    assert missing.returncode == 1 and json.loads(missing.stderr.strip().splitlines()[-1])["status"] == 404
    bad = qlgate("submit", str(script), "--type", "t", "--not-before", "tomorrow-ish")
    assert bad.returncode == 2 and "--not-before" in json.loads(bad.stderr.strip().splitlines()[-1])["error"]


def three_calls(label: str, ms: int = 600) -> str:
    """A job whose three calls go one after another (each needs the one before)."""
    return (
        f'a = select * from partner.a.call where ms = "{ms}" and job = "{label}";\n'
        f'b = select * from partner.a.call where ms = "{ms}" and job = "{{a.job}}-2";\n'
        f'return select * from partner.a.call where ms = "{ms}" and job = "{{b.job}}-3";'
    )


def test_a_worker_frozen_past_its_session_is_fenced_and_its_run_never_calls_again(workers, jobs, observer):
    """SIGSTOP mid-call for longer than the session: the limiter re-grants the run only
    after the session and the worker's call deadline have passed, so the upstream never
    sees two of the job's calls at once (limit 1); thawed, the worker sends not one more
    call for the run it lost, drops its outcome, and comes back with a new session."""
    workers.start("frozen", slots=1)
    workers.start("other", slots=1)
    jobs.set_limit("partner.a", 1)
    job_id = jobs.submit(JobSpec(three_calls("thawed"), types=["partner.a"]))
    victim = wait_for_state(jobs, job_id, "running").attempts[-1].worker
    deadline = time.monotonic() + 10
    while not observer.calls_of(job_id, 1):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(workers.procs[victim].pid, signal.SIGSTOP)  # alive, but silent: its session expires
    frozen_at = time.time()
    # thawed after its session has certainly expired, but before its call deadline has passed:
    # nothing but its lease stops the run from sending its next call
    time.sleep(SESSION_S + 1.5)
    os.kill(workers.procs[victim].pid, signal.SIGCONT)
    (job,) = jobs.wait([job_id], timeout=30)
    assert job.state == "done" and job.run == 2
    assert job.attempts[0].worker == victim and "lost" in job.attempts[0].error
    assert job.attempts[1].worker != victim
    assert job.attempts[1].started - frozen_at >= CALL_TIMEOUT_S  # not before the call deadline passed
    # the run it lost sent the one call it had sent before the freeze, and nothing after it thawed
    assert len(observer.calls_of(job_id, 1)) == 1 and len(observer.calls_of(job_id, 2)) == 3
    assert observer.max_in_flight["partner.a"] == 1
    deadline = time.monotonic() + 20
    while victim not in jobs.workers():
        assert time.monotonic() < deadline, "the thawed worker did not come back"
        time.sleep(0.05)
    again = jobs.submit(JobSpec(call(10, "after"), types=["partner.a"]))
    assert jobs.wait([again], timeout=20)[0].state == "done"
    assert jobs.get(job_id).run == 2
    log = (workers.setup / f"{victim}.log").read_text()
    assert f"job {job_id} run 1: fenced" in log or f"job {job_id} run 1: outcome dropped" in log


def test_zookeeper_restarting_under_load_loses_no_job_and_breaks_no_limit(tmp_path, setup, observer):
    from qlgate.jobs.zk.session import zk_client
    from tests.servers.zookeeper import LocalZooKeeper

    server = LocalZooKeeper(max_session_ms=60_000).start()
    client = zk_client(server.hosts, timeout=10)
    client.start(10)
    jobs = cluster_jobs(client, setup)
    pool = Workers(server.hosts, setup, jobs)
    try:
        jobs.set_limit("partner.a", 3)
        for name in ("w1", "w2"):
            pool.start(name, slots=3)
        ids = [jobs.submit(JobSpec(call(150, f"r{i}"), types=["partner.a"])) for i in range(20)]
        deadline = time.monotonic() + 10
        while not jobs.running_runs():
            assert time.monotonic() < deadline
            time.sleep(0.02)
        server.stop()  # every session survives a short outage: it is in the server's log
        time.sleep(1.0)
        server.start()
        finished = jobs.wait(ids, timeout=60)
        assert [j.state for j in finished] == ["done"] * len(ids)
        assert observer.max_in_flight["partner.a"] <= 3
        assert jobs.running_runs() == []
    finally:
        pool.stop_all()
        jobs.close()
        client.stop()
        client.close()
        server.close()


def test_a_flood_of_submissions_meets_backpressure_and_every_accepted_job_ends(zk_hosts, setup, observer):
    """Eight clients push 40 jobs each into a queue bounded at 30: they are told to wait
    (429 / QueueFull), back off with jitter, and in the end every job is accepted and done."""
    import threading

    from qlgate.commands.jobs_actions import submit_with_backoff
    from qlgate.jobs.model import QueueFull
    from qlgate.jobs.zk.session import zk_client

    client = zk_client(zk_hosts)
    client.start(10)
    jobs = cluster_jobs(client, setup, max_queue=30)
    pool = Workers(zk_hosts, setup, jobs)
    accepted: list[int] = []
    refusals = 0
    lock = threading.Lock()

    def flood(n: int) -> None:
        nonlocal refusals
        for i in range(40):

            def submit(i: int = i) -> int:
                nonlocal refusals
                try:
                    return jobs.submit(JobSpec(call(100, f"f{n}-{i}", "c"), types=["partner.c"]))
                except QueueFull:
                    with lock:
                        refusals += 1
                    raise

            job_id = submit_with_backoff(submit, tries=30)
            with lock:
                accepted.append(job_id)

    try:
        pool.start("w1", slots=8)
        pool.start("w2", slots=8)
        # the gate stays shut until the queue is full, whatever this machine's speed; then the
        # workers drain it while the clients keep pushing
        jobs.set_limit("partner.c", 0)
        clients = [threading.Thread(target=flood, args=(n,)) for n in range(8)]
        for thread in clients:
            thread.start()
        deadline = time.monotonic() + 30
        while not refusals and time.monotonic() < deadline:
            time.sleep(0.01)
        assert refusals > 0  # the bound was reached
        assert jobs.limits()["partner.c"]["waiting"] == 30  # and held
        jobs.set_limit("partner.c", 16)
        for thread in clients:
            thread.join(120)
        assert len(accepted) == len(set(accepted)) == 320
        finished = jobs.wait(accepted, timeout=120)
        assert [j.state for j in finished] == ["done"] * 320
        assert len({label for _, kind, label in observer.started if kind == "partner.c"}) == 320
    finally:
        pool.stop_all()
        jobs.close()
        client.stop()
        client.close()


def test_a_frozen_limiter_master_is_replaced_and_cannot_grant_when_it_thaws(zk_hosts, setup, jobs, observer):
    """The master's session expires while it is frozen; a standby takes over. Thawed, the
    old master still believes it is master for a moment — its grants must all fail, since
    each one checks the election node its expired session lost."""
    limiters = {
        name: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "qlgate",
                "limiter",
                "--zookeeper",
                zk_hosts,
                "--name",
                name,
                "--session-timeout",
                str(SESSION_S),
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in ("l1", "l2")
    }
    pool = Workers(zk_hosts, setup, jobs)
    try:
        deadline = time.monotonic() + 20
        while jobs.master() not in limiters:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        for name in ("w1", "w2"):
            pool.start(name, slots=4)
        jobs.set_limit("partner.a", 2)
        master = jobs.master()
        os.kill(limiters[master].pid, signal.SIGSTOP)
        ids = [jobs.submit(JobSpec(call(150, f"m{i}"), types=["partner.a"])) for i in range(10)]
        deadline = time.monotonic() + SESSION_S + 10
        while jobs.master() in (master, None):
            assert time.monotonic() < deadline, "no standby took over"
            time.sleep(0.05)
        os.kill(limiters[master].pid, signal.SIGCONT)  # it wakes up thinking it is in charge
        finished = jobs.wait(ids, timeout=60)
        assert [j.state for j in finished] == ["done"] * 10
        assert all(j.run == 1 for j in finished)  # nothing was granted twice
        assert observer.max_in_flight["partner.a"] == 2
        assert jobs.running_runs() == []
    finally:
        pool.stop_all()
        for proc in limiters.values():
            try:
                os.kill(proc.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            proc.terminate()
            proc.wait(15)
