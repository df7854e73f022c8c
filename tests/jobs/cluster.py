"""A job cluster in the production layout, for chaos tests: dedicated ``qlgate
limiter`` processes, ``qlgate worker --no-limiter`` processes, the cluster's
database (SQLite here: one host), and a client. Every process is real, with a
log of its own in the test's directory, and is stopped at the end.

``check_every_job_ended_once`` reads the witness — the partner API's own log
of calls (``observer.py``) — against the job records: the limit held at the
upstream at every instant, every job is done, and no run that lost its job
sent a call after its job was given to another run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from qlgate.jobs.archive import Archive
from qlgate.jobs.model import Job
from qlgate.jobs.zk.client import ZkJobs
from qlgate.jobs.zk.session import zk_client

ROOT = Path(__file__).resolve().parents[2]


class Cluster:
    """``server_lag_s``: the ensemble's syncLimit × tickTime (LocalEnsemble: 2 s)."""

    def __init__(
        self,
        hosts: str,
        work: Path,
        observer,
        *,
        session_s: float = 2.0,
        call_timeout_s: float = 3.0,
        stop_timeout_s: float = 5.0,
        server_lag_s: float = 2.0,
    ):
        self.hosts, self.work, self.observer = hosts, work, observer
        self.session_s = session_s
        (work / "tables").mkdir(exist_ok=True)
        from tests.jobs.observer import TABLES

        (work / "tables" / "partner.ql").write_text(TABLES)
        self.database = work / "jobs.sqlite"
        (work / "config.json").write_text(
            json.dumps(
                {
                    "base": observer.base,
                    "jobs": {
                        "callTimeout": call_timeout_s,
                        "stopTimeout": stop_timeout_s,
                        "database": str(self.database),
                        "serverLag": server_lag_s,
                    },
                }
            )
        )
        self.procs: dict[str, subprocess.Popen] = {}
        self.client = zk_client(hosts, timeout=10)
        self.client.start(30)
        self.jobs = ZkJobs(self.client, archive=Archive(self.database))

    # ------------------------------------------------------------------ processes
    def _spawn(self, name: str, command: list[str], hosts: str | None = None) -> subprocess.Popen:
        log = open(self.work / f"{name}.log", "ab")
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "qlgate",
                *command,
                "--zookeeper",
                hosts or self.hosts,
                "--config",
                str(self.work / "config.json"),
                "--name",
                name,
                "--session-timeout",
                str(self.session_s),
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        log.close()
        self.procs[name] = proc
        return proc

    def limiter(self, name: str) -> subprocess.Popen:
        return self._spawn(name, ["limiter"])

    def worker(self, name: str, slots: int = 2, hosts: str | None = None) -> subprocess.Popen:
        proc = self._spawn(
            name, ["worker", "--tables", str(self.work / "tables"), "--slots", str(slots), "--no-limiter"], hosts
        )
        deadline = time.monotonic() + 30
        while name not in self.jobs.workers():
            assert proc.poll() is None, self.log(name)
            assert time.monotonic() < deadline, f"worker {name} did not register"
            time.sleep(0.05)
        return proc

    def wait_for_master(self, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while (master := self.jobs.master()) is None:
            assert time.monotonic() < deadline, "no limiter master"
            time.sleep(0.05)
        return master

    def signal(self, name: str, signum: int) -> float:
        os.kill(self.procs[name].pid, signum)
        return time.time()

    def log(self, name: str) -> str:
        return (self.work / f"{name}.log").read_text(errors="replace")

    def close(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                try:
                    os.kill(proc.pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        self.jobs.close()
        self.client.stop()
        self.client.close()

    # ------------------------------------------------------------------ the witness
    def wait_for_calls(self, job_id: int, run: int = 1, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not self.observer.calls_of(job_id, run):
            assert time.monotonic() < deadline, f"job {job_id} run {run} made no call"
            time.sleep(0.01)

    def check_every_job_ended_once(
        self, ids: list[int], *, kind: str, limit: int, calls_per_job: int, timeout: float = 90
    ) -> list[Job]:
        finished = self.jobs.wait(ids, timeout=timeout)
        assert [j.state for j in finished] == ["done"] * len(ids), [(j.id, j.state, j.error) for j in finished]
        assert len({j.id for j in self.jobs.list(limit=100_000)} & set(ids)) == len(ids)
        assert self.observer.max_in_flight[kind] <= limit, (self.observer.max_in_flight[kind], limit)
        for job in finished:
            final = self.observer.calls_of(job.id, job.run)
            assert len(final) == calls_per_job, (job.id, job.run, final)
            for attempt, following in zip(job.attempts, job.attempts[1:]):
                # a run that lost its job sent nothing once the job had gone to the next run, and
                # every call it had sent was over by then (answered, or cut off at its deadline)
                calls = self.observer.calls_of(job.id, attempt.run)
                late = [c for c in calls if c[0] >= following.started]
                assert not late, (job.id, attempt.run, attempt.error, late)
                overlapping = [c for c in calls if c[1] is None or c[1] > following.started]
                assert not overlapping, (job.id, attempt.run, attempt.error, overlapping)
        return finished


def three_calls(label: str, ms: int = 300, kind: str = "a") -> str:
    """A job whose three calls go one after another (each needs the one before)."""
    return (
        f'a = select * from partner.{kind}.call where ms = "{ms}" and job = "{label}";\n'
        f'b = select * from partner.{kind}.call where ms = "{ms}" and job = "{{a.job}}-2";\n'
        f'return select * from partner.{kind}.call where ms = "{ms}" and job = "{{b.job}}-3";'
    )
