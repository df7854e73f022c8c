"""The job system cannot be wedged: an outcome that cannot be stored, a run that never
ends, a long poll that never returns, numbers out of any sane range — each fails one
request or one attempt with a typed error, and every slot and thread comes back.
Real parts throughout: SQLite, a real ZooKeeper, the gateway on 127.0.0.1, a partner
API that drips its answer a byte at a time."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import pytest
from aiohttp import web

from qlgate.jobs.archive import Archive
from qlgate.jobs.factory import open_job_backend
from qlgate.jobs.local import LocalJobs
from qlgate.jobs.runner import EngineRunner
from qlgate.jobs.zk.client import ZkJobs
from qlgate.jobs.zk.limiter import Limiter
from qlgate.jobs.zk.session import zk_client
from qlgate.jobs.zk.worker import Worker
from qlgate.server.app import build_app
from tests.gateway_server import GatewayTestServer

ROOT = Path(__file__).resolve().parents[2]
SURROGATE = 'return "\\ud800";'  # a script whose result is a lone surrogate
DRIP_TABLES = {"drip.ql": 'create table drip.slow on select get from "{config.base}/drip"'}
DRIP_SCRIPT = "return select * from drip.slow"


class Drip:
    """A partner API that never finishes its answer: one byte every 0.5 s, so no idle
    timeout ever fires. In a thread of its own, so worker processes reach it too;
    ``open`` counts the answers still being sent (a cancelled run closes its own)."""

    def __init__(self) -> None:
        self.open = 0
        self.base = ""
        self.loop = asyncio.new_event_loop()

    async def drip(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        self.open += 1
        try:
            await response.prepare(request)
            for _ in range(240):
                await response.write(b" ")
                await asyncio.sleep(0.5)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.open -= 1
        return response

    def start(self) -> Drip:
        async def serve() -> None:
            app = web.Application()
            app.router.add_get("/drip", self.drip)
            self._runner = web.AppRunner(app, access_log=None)
            await self._runner.setup()
            await web.TCPSite(self._runner, "127.0.0.1", 0).start()
            self.base = f"http://127.0.0.1:{self._runner.addresses[0][1]}"

        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(serve(), self.loop).result(10)
        return self

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)


@pytest.fixture
def drip():
    server = Drip().start()
    yield server
    server.stop()


def closed_soon(drip: Drip, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while drip.open and time.monotonic() < deadline:
        time.sleep(0.05)
    return drip.open == 0


@pytest.fixture
async def gateway(tmp_path, drip, make_engine):
    """A gateway with the embedded backend as ``qlgate serve`` opens it: one slot,
    ``jobs.maxRunSeconds`` 2. Yields a client session on it, and its base URL."""
    engine = make_engine(
        DRIP_TABLES,
        {"base": drip.base, "jobs": {"database": str(tmp_path / "jobs.sqlite"), "slots": 1, "maxRunSeconds": 2}},
    )
    jobs, stop_jobs = open_job_backend(SimpleNamespace(zookeeper=None), engine, runs_jobs=True)
    app = build_app(engine, jobs=jobs)
    app.on_close(stop_jobs)
    server = GatewayTestServer(app, host="127.0.0.1")
    await server.start_server()
    base = str(server.make_url(""))
    async with aiohttp.ClientSession(base_url=base, timeout=aiohttp.ClientTimeout(total=20)) as session:
        yield SimpleNamespace(session=session, base=base)
    await server.close()


async def call(gateway: SimpleNamespace, method: str, path: str, body=None, timeout: float = 20):
    data = None if body is None else json.dumps(body)
    headers = {"Content-Type": "application/json"} if data is not None else {}
    async with gateway.session.request(
        method, path, data=data, headers=headers, timeout=aiohttp.ClientTimeout(total=timeout)
    ) as resp:
        return resp.status, await resp.json()


def unrecordable_runner():
    """Runs every job at once; a job whose script is "unrecordable" returns a value JSON cannot
    encode — the stand-in for anything that fails while its outcome is written down."""

    async def run(job):
        return {"at": object()} if job.script == "unrecordable" else job.script

    return run


# ------------------------------------------------------------------ 1. outcomes that cannot be stored


async def test_lone_surrogates_are_stored_and_never_wedge_a_slot(tmp_path, make_engine):
    """Four jobs returning a lone surrogate took all four slots of the embedded backend for
    good (SQLite's UTF-8 refused the record, and the slot was never given back): now they
    end done, their result kept across a restart, and the next job runs."""
    path = tmp_path / "jobs.sqlite"
    engine = make_engine()
    jobs = LocalJobs(path, EngineRunner(engine), slots=4).start()
    try:
        ids = [jobs.submit(SURROGATE, types=["t"], vars={"note": "\udfff"}) for _ in range(4)]
        ended = await asyncio.to_thread(jobs.wait, ids, 10)
        assert [(j.state, j.result) for j in ended] == [("done", "\ud800")] * 4
        (after,) = await asyncio.to_thread(jobs.wait, [jobs.submit("return 1;", types=["t"])], 10)
        assert after.state == "done" and after.result == 1
    finally:
        await jobs.stop()
        jobs.close()
    again = LocalJobs(path)
    try:
        job = again.get(ids[0])
        assert (job.state, job.result, job.vars) == ("done", "\ud800", {"note": "\udfff"})
    finally:
        again.close()


async def test_an_unrecordable_outcome_fails_the_attempt_and_frees_the_slot(tmp_path, caplog):
    """Whatever fails while an attempt is recorded, the slot is released and the attempt
    fails with a logged RecordError: retried per max_attempts, then failed, never running."""
    jobs = LocalJobs(tmp_path / "jobs.sqlite", unrecordable_runner(), slots=1).start()
    try:
        with caplog.at_level(logging.ERROR, logger="qlgate.jobs.local"):
            job_id = jobs.submit("unrecordable", types=["t"], max_attempts=2)
            (job,) = await asyncio.to_thread(jobs.wait, [job_id], 10)
        assert job.state == "failed" and len(job.attempts) == 2
        assert all(a.error.startswith("RecordError: the outcome could not be recorded: ") for a in job.attempts)
        assert "could not be recorded" in caplog.text
        (after,) = await asyncio.to_thread(jobs.wait, [jobs.submit("fine", types=["t"])], 10)
        assert (after.state, after.result) == ("done", "fine")
    finally:
        await jobs.stop()
        jobs.close()


def test_the_zookeeper_worker_fails_an_unrecordable_outcome_and_frees_its_slots(zk_hosts):
    """The worker's finishing transaction raised on an outcome it could not encode, leaving
    the job running and its slot held while the worker lived: now the attempt fails with a
    RecordError and the slots go. A lone surrogate is stored as an escape, as before."""
    sessions = []

    def session():
        client = zk_client(zk_hosts, timeout=2.0)
        client.start(10)
        sessions.append(client)
        return client

    jobs = ZkJobs(session())
    limiter = Limiter(session(), name="l").start()
    worker = Worker(session(), unrecordable_runner(), name="w", slots=1).start()
    try:
        bad = jobs.submit("unrecordable", types=["t"], max_attempts=1)
        surrogate = jobs.submit("\ud800", types=["t"])
        fine = jobs.submit("fine", types=["t"])
        ended = jobs.wait([bad, surrogate, fine], timeout=15)
        assert ended[0].state == "failed"
        assert ended[0].error.startswith("RecordError: the outcome could not be recorded: ")
        assert [(j.state, j.result) for j in ended[1:]] == [("done", "\ud800"), ("done", "fine")]
        assert jobs.running_runs() == []
    finally:
        worker.stop(drain=False)
        limiter.stop()
        jobs.close()
        for client in sessions:
            client.stop()
            client.close()


# ------------------------------------------------------------------ 2. deadlines


async def test_a_run_past_its_deadline_fails_with_jobtimeout_and_frees_its_slot(gateway, drip, tmp_path):
    """A job reading an upstream that drips a byte every 0.5 s ran for ever. Now a run is
    cancelled at the job's max_seconds — or at jobs.maxRunSeconds (2 s here), which no
    job may ask to exceed — and the attempt fails with JobTimeout, retried like any other."""
    started = time.monotonic()
    status, answer = await call(
        gateway, "POST", "/jobs", {"script": DRIP_SCRIPT, "types": ["drip"], "max_seconds": 1, "max_attempts": 2}
    )
    assert status == 202
    status, job = await call(gateway, "GET", f"/jobs/{answer['id']}?wait=15")
    assert job["state"] == "failed" and job["max_seconds"] == 1
    assert [a["error"] for a in job["attempts"]] == ["JobTimeout: the run took longer than 1 s"] * 2
    assert time.monotonic() - started < 8
    assert await asyncio.to_thread(closed_soon, drip)  # the runs were really cancelled

    _, answer = await call(gateway, "POST", "/jobs", {"script": DRIP_SCRIPT, "types": ["drip"], "max_attempts": 1})
    _, job = await call(gateway, "GET", f"/jobs/{answer['id']}?wait=15")
    assert job["state"] == "failed" and job["error"] == "JobTimeout: the run took longer than 2 s"

    status, answer = await call(gateway, "POST", "/jobs", {"script": "return 1", "types": ["t"]})
    _, job = await call(gateway, "GET", f"/jobs/{answer['id']}?wait=10")
    assert job["state"] == "done"  # the one slot is free again

    status, refused = await call(gateway, "POST", "/jobs", {"script": "return 1", "types": ["t"], "max_seconds": 3})
    assert status == 400 and "max_seconds" in refused["err"] and "at most 2" in refused["err"]
    script = tmp_path / "one.ql"
    script.write_text("return 1")
    for seconds, code in (("3", 1), ("1.5", 0)):  # qlgate jobs submit --max-seconds, over REST
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "qlgate",
            "jobs",
            "submit",
            str(script),
            "--type",
            "t",
            "--max-seconds",
            seconds,
            "--gateway",
            gateway.base,
            "--json",
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        assert (proc.returncode != 0) == bool(code), err.decode()
    _, job = await call(gateway, "GET", f"/jobs/{json.loads(out)['id']}")
    assert job["max_seconds"] == 1.5


def test_a_zookeeper_worker_ends_runs_at_their_deadline(zk_hosts, drip, tmp_path):
    """``qlgate worker`` takes jobs.maxRunSeconds from its config, and ``qlgate jobs submit
    --max-seconds`` a shorter deadline: both runs end in JobTimeout, the slot comes back."""
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "drip.ql").write_text(DRIP_TABLES["drip.ql"])
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"base": drip.base, "jobs": {"maxRunSeconds": 1}}))
    (tmp_path / "drip.ql").write_text(DRIP_SCRIPT)
    (tmp_path / "one.ql").write_text("return 1")
    with open(tmp_path / "worker.log", "w") as log:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "qlgate",
                "worker",
                "--zookeeper",
                zk_hosts,
                "--tables",
                str(tmp_path / "tables"),
                "--config",
                str(config),
                "--name",
                "w",
                "--slots",
                "1",
                "--session-timeout",
                "2",
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )

    def submit(script: str, *extra: str) -> int:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "qlgate",
                "jobs",
                "submit",
                str(tmp_path / script),
                "--type",
                "t",
                "--max-attempts",
                "1",
                *extra,
                "--zookeeper",
                zk_hosts,
                "--json",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)["id"]

    client = zk_client(zk_hosts)
    client.start(10)
    # the worker writes results to the cluster's database: here the session's (QLGATE_JOBS_DATABASE)
    jobs = ZkJobs(client, archive=Archive(os.environ["QLGATE_JOBS_DATABASE"]))
    try:
        deadline = time.monotonic() + 20
        while "w" not in jobs.workers():
            assert worker.poll() is None and time.monotonic() < deadline, (tmp_path / "worker.log").read_text()
            time.sleep(0.1)
        ids = [submit("drip.ql", "--max-seconds", "0.5"), submit("drip.ql"), submit("one.ql")]
        short, capped, fine = jobs.wait(ids, timeout=40)
        assert short.error == "JobTimeout: the run took longer than 0.5 s"
        assert capped.error == "JobTimeout: the run took longer than 1 s"
        assert (fine.state, jobs.load_result(fine)) == ("done", 1)
        assert jobs.running_runs() == []
    finally:
        worker.terminate()
        try:
            worker.wait(15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        jobs.close()
        client.stop()
        client.close()


# ------------------------------------------------------------------ 3. numbers in requests


async def test_bad_waits_are_refused_at_once(gateway):
    """``?wait=nan`` slipped past the 60 s cap and never returned; every bad wait is now a
    400 naming the parameter, answered at once."""
    _, answer = await call(gateway, "POST", "/jobs", {"script": "return 1", "types": ["t"], "not_before": "+1h"})
    for wait in ("nan", "NaN", "inf", "-inf", "1e999", "-1", "61", "soon"):
        status, body = await call(gateway, "GET", f"/jobs/{answer['id']}?wait={wait}", timeout=3)
        assert status == 400 and body["err"].startswith("wait must be a number from 0 to 60"), (wait, body)


async def test_ids_limits_and_rates_out_of_range_are_typed_errors(gateway):
    """Ids beyond 64 bits overflowed SQLite (an untyped 500), as did a limit of 10**30; now
    ids are 1..2**63-1 (any other number is no job), limits 0..1,000,000, rates bounded too."""
    for job_id in (2**64, 2**63, 10**30, 0, -1):
        for method, path in (
            ("GET", f"/jobs/{job_id}"),
            ("GET", f"/jobs/{job_id}/result"),
            ("DELETE", f"/jobs/{job_id}"),
            ("GET", f"/jobs/{job_id}?wait=1"),
        ):
            assert await call(gateway, method, path) == (
                404,
                {"err": f"no job {job_id}", "type": "NotFound", "status": 404},
            ), path
    assert (await call(gateway, "GET", "/jobs/12x"))[0] == 400
    for limit in ("0", "1001", "nan", "1e3", "-5"):
        status, body = await call(gateway, "GET", f"/jobs?limit={limit}")
        assert status == 400 and body["err"].startswith("limit must be a whole number from 1 to 1000"), limit
    assert (await call(gateway, "GET", "/jobs?limit=1000"))[0] == 200

    for limit in (10**30, 1_000_001, -1, 2.5, True, "5"):
        status, body = await call(gateway, "PUT", "/limits/t", {"limit": limit})
        assert status == 400 and "a limit is a whole number of jobs from 0 to 1,000,000" in body["err"], limit
    assert (await call(gateway, "PUT", "/limits/t", {"limit": 1_000_000}))[1]["t"]["limit"] == 1_000_000
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "qlgate",
        "jobs",
        "limits",
        "t",
        str(10**30),
        "--gateway",
        gateway.base,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode != 0 and b"from 0 to 1,000,000" in err

    for rate in ({"calls": 10**30}, "10000000000000000000000/s", {"calls": 5, "per": []}, {"calls": 5, "per": {}}):
        status, body = await call(gateway, "PUT", "/rates/t", rate)
        assert status == 400 and "a rate" in body["err"], rate
    assert (await call(gateway, "PUT", "/rates/t", "1000000000/day"))[0] == 200


# ------------------------------------------------------------------ 4. caps at submit


async def test_submissions_are_capped(gateway):
    """max_attempts was unbounded (a job retried a billion times), not_before any time at
    all (NaN, infinity, the year 10000), types without number: each is a clear 400 now."""
    ok = {"script": "return 1", "types": ["t"], "not_before": "+1h"}
    refused = {
        "max attempts must be a whole number from 1 to 20": [
            {"max_attempts": 21},
            {"max_attempts": 10**9},
            {"max_attempts": 0},
        ],
        "not before must be a time at most 366 days ahead": [
            {"not_before": "+367d"},
            {"not_before": "nan"},
            {"not_before": 1e300},
            {"not_before": "1e999"},
        ],
        "a job may have at most 16 types": [{"types": [f"t{i}" for i in range(17)]}],
        "max_seconds must be a number of seconds above 0 and at most 2": [
            {"max_seconds": 0},
            {"max_seconds": -1},
            {"max_seconds": "5"},
            {"max_seconds": True},
            {"max_seconds": 10**30},
        ],
    }
    for message, changes in refused.items():
        for change in changes:
            status, body = await call(gateway, "POST", "/jobs", {**ok, **change})
            assert status == 400 and message in body["err"], (change, body)
    for change in (
        {"max_attempts": 20},
        {"not_before": "+365d"},
        {"types": [f"t{i}" for i in range(16)]},
        {"max_seconds": 2},
    ):
        assert (await call(gateway, "POST", "/jobs", {**ok, **change}))[0] == 202, change
    async with gateway.session.post(
        "/jobs",
        data='{"script": "return 1", "types": ["t"], "max_seconds": NaN}',
        headers={"Content-Type": "application/json"},
    ) as resp:
        assert resp.status == 400 and "max_seconds" in (await resp.json())["err"]


# ------------------------------------------------------------------ 5. long polls


async def test_long_polls_cannot_freeze_the_jobs_api(gateway):
    """Every long poll blocked a thread of the default pool (6 threads on 2 cores), which
    every other backend call needs: a handful of ``?wait=60`` froze the API. Now long polls
    wait in a bounded pool of their own; beyond it they are answered at once."""
    _, answer = await call(gateway, "POST", "/jobs", {"script": "return 1", "types": ["t"], "not_before": "+1h"})
    polls = [
        asyncio.ensure_future(call(gateway, "GET", f"/jobs/{answer['id']}?wait=60", timeout=90)) for _ in range(40)
    ]  # more than any default pool (at most 32 threads)
    try:
        await asyncio.sleep(0.5)
        for path in ("/jobs", "/health", f"/jobs/{answer['id']}"):
            started = time.monotonic()
            status, _ = await call(gateway, "GET", path, timeout=1)
            assert status == 200 and time.monotonic() - started < 1, path
        answered = [p.result() for p in polls if p.done()]
        assert answered and all(status == 200 and job["state"] == "queued" for status, job in answered)
        status, _ = await call(gateway, "DELETE", f"/jobs/{answer['id']}", timeout=1)
        assert status == 200
        for status, job in await asyncio.wait_for(asyncio.gather(*polls), 5):  # the waits see it end
            assert status == 200 and job["state"] in ("queued", "cancelled")
    finally:
        for poll in polls:
            poll.cancel()
