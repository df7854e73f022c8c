"""One way in (issue 13, finding 4 and item 3): a job submitted over HTTP is a
caller's script on every worker of the cluster — the ad-hoc policy follows it
into the run, whichever backend runs it — while the operator's own job,
submitted to the cluster directly, runs as deployer code."""

from __future__ import annotations

import asyncio
import json
import threading

import aiohttp
import pytest

from qlgate.engine.engine import Engine
from qlgate.jobs.local import LocalJobs
from qlgate.jobs.runner import EngineRunner
from qlgate.jobs.zk.client import ZkJobs
from qlgate.jobs.zk.limiter import Limiter
from qlgate.jobs.zk.session import zk_client
from qlgate.jobs.zk.worker import Worker
from qlgate.server.app import build_app
from tests.gateway_server import GatewayTestServer

# the deployment's own partner API; the observer's loopback address plays an internal host
TABLES = "create table partner.items on select get from 'http://api.partner.example/items'"


def inline_call(base: str) -> str:
    return f"create table internal on select get from '{base}/call?type=internal&ms=0'; return select * from internal;"


@pytest.fixture
def tables(tmp_path):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "partner.ql").write_text(TABLES)
    return tmp_path / "tables"


async def test_post_jobs_gets_the_adhoc_policy_on_the_embedded_backend(tables, tmp_path, observer):
    engine = Engine(tables=tables, config={"svc": {"token": "job-secret-token"}})
    jobs = LocalJobs(tmp_path / "jobs.sqlite", EngineRunner(engine)).start()
    server = GatewayTestServer(build_app(engine, jobs=jobs), host="127.0.0.1")
    await server.start_server()
    try:
        async with aiohttp.ClientSession(base_url=str(server.make_url(""))) as client:

            async def submit(script, **extra):
                async with client.post(
                    "/jobs", json={"script": script, "types": ["t"], "max_attempts": 1, **extra}
                ) as resp:
                    return resp.status, await resp.json()

            status, body = await submit(inline_call(observer.base))  # accepted: the host is checked on the run
            assert status == 202
            async with client.get(f"/jobs/{body['id']}", params={"wait": "20"}) as resp:
                job = await resp.json()
            assert job["state"] == "failed" and "may not call" in job["error"] and job["trust"] == "caller"
            assert observer.calls["internal"] == 0
            for script, clause in (
                ('o = require("os"); return o.getcwd();', "require"),
                ('return "{config.svc.token}";', "config"),
                ("return describe partner.items;", "describe"),
            ):
                status, body = await submit(script)
                assert status == 400 and body["clause"] == clause and body["line"] == 1
                assert "job-secret-token" not in json.dumps(body)
            # the partner APIs a script calls are its types, whatever types the caller names
            async with client.post(
                "/jobs",
                json={"script": "return select * from partner.items;", "types": ["whatever"], "not_before": "+1h"},
            ) as resp:
                job = await (await client.get(f"/jobs/{(await resp.json())['id']}")).json()
            assert job["types"] == ["partner", "whatever"] and job["policy"]["inlineTables"] is True
            # a job's own table counts as the partner API that calls its host; its host must be written out
            for script, expected in (
                (inline_call("http://api.partner.example"), ["partner"]),
                (inline_call(observer.base), ["internal"]),
            ):
                async with client.post("/jobs", json={"script": script, "not_before": "+1h"}) as resp:
                    job = await (await client.get(f"/jobs/{(await resp.json())['id']}")).json()
                assert job["types"] == expected
            status, body = await submit(
                'h = "api.partner.example"; create table t on select get from "http://{h}/x"; return select * from t;'
            )
            assert status == 400 and "write out the host" in body["err"]
            # an empty or mistyped body never lifts a limit or a rate
            for path, body in (("/limits/t", {}), ("/limits/t", {"limt": 0}), ("/rates/t", None)):
                async with client.put(path, json=body) if body is not None else client.put(path) as resp:
                    assert resp.status == 400, (path, body)
            # JSON nested deeper than any request needs is a typed 400 on every jobs endpoint
            deep = "[" * 100_000 + "]" * 100_000
            for method, path in (("POST", "/jobs"), ("PUT", "/limits/t"), ("PUT", "/rates/t")):
                async with client.request(
                    method, path, data=deep, headers={"Content-Type": "application/json"}
                ) as resp:
                    assert resp.status == 400 and "nested" in (await resp.json())["err"], (method, path)
    finally:
        await server.close()
        await jobs.stop()
        jobs.close()


def test_a_callers_job_runs_under_the_adhoc_policy_on_every_zookeeper_worker(tables, zk_hosts, observer):
    """The record says ``trust: caller``; each worker applies its own config's
    ``gateway.adhoc`` — here, inline tables off on one worker, the host allow-list on both."""
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    clients, workers, limiters = [], [], []

    def session():
        client = zk_client(zk_hosts, timeout=2.0)
        client.start(10)
        clients.append(client)
        return client

    try:
        for name, adhoc in (("w0", {}), ("w1", {"inlineTables": False})):
            limiters.append(Limiter(session(), name=f"l-{name}").start())
            engine = Engine(tables=tables, config={"gateway": {"adhoc": adhoc}})
            workers.append(Worker(session(), EngineRunner(engine), name=name, slots=2, loop=loop).start())
        jobs = ZkJobs(session())
        callers = [
            jobs.submit(inline_call(observer.base), types=["t"], trust="caller", owner="k", max_attempts=1)
            for _ in range(6)
        ]
        # the policy of the gateway that took it travels with the job: no inline tables, anywhere
        strict = jobs.submit(
            inline_call(observer.base),
            types=["t"],
            trust="caller",
            max_attempts=1,
            policy={"allowedHosts": [observer.base.split("//")[1]], "inlineTables": False},
        )
        mine = jobs.submit(inline_call(observer.base), types=["t"], max_attempts=1)
        ended = jobs.wait([*callers, strict, mine], timeout=60)
        assert ended[-2].state == "failed" and "inlineTables" in ended[-2].error
        ended = ended[:-2] + ended[-1:]
        for job in ended[:-1]:
            assert job.state == "failed" and job.trust == "caller" and job.owner == "k"
            assert "may not call" in job.error or "inlineTables" in job.error, job.error
        assert {job.attempts[-1].worker for job in ended[:-1]} == {"w0", "w1"}  # both workers took some
        assert ended[-1].state == "done" and ended[-1].result["type"] == "internal"
        assert observer.calls["internal"] == 1
    finally:
        for worker in workers:
            worker.stop(drain=False)
        for limiter in limiters:
            limiter.stop()
        for client in clients:
            client.stop()
            client.close()
        loop.call_soon_threadsafe(loop.stop)
