"""A submission whose answer was lost is sent again and queues nothing twice:
over HTTP the ``Idempotency-Key`` header names the first job, for the same API
key only; ``qlgate jobs submit`` sends a key of its own on every try."""

from __future__ import annotations

import aiohttp
from aiohttp.test_utils import TestServer

from qlgate.engine.engine import Engine
from qlgate.jobs.local import LocalJobs
from qlgate.server.app import build_app


async def test_post_jobs_with_the_same_idempotency_key_answers_the_first_job(tmp_path):
    (tmp_path / "tables").mkdir()
    engine = Engine(tables=tmp_path / "tables", config={})
    jobs = LocalJobs(tmp_path / "jobs.sqlite")           # not started: the jobs stay queued
    server = TestServer(build_app(engine, jobs=jobs), host="127.0.0.1")
    await server.start_server()
    try:
        async with aiohttp.ClientSession(base_url=str(server.make_url(""))) as client:
            async def submit(key: str | None) -> int:
                headers = {"Idempotency-Key": key} if key else {}
                async with client.post("/jobs", json={"script": "return 1;", "types": ["t"]},
                                       headers=headers) as resp:
                    assert resp.status == 202, await resp.text()
                    return (await resp.json())["id"]

            first = await submit("order-42")
            assert await submit("order-42") == first           # the retry
            assert await submit("order-43") != first
            assert await submit(None) != await submit(None)    # no key: every POST is a job
            assert len(jobs.list()) == 4
            async with client.post("/jobs", json={"script": "return 1;", "types": ["t"]},
                                   headers={"Idempotency-Key": "x" * 201}) as resp:
                assert resp.status == 400 and "idempotency key" in (await resp.json())["err"]
    finally:
        await server.close()
        jobs.close()
