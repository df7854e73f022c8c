"""A submission whose answer was lost is sent again and queues nothing twice:
over HTTP the ``Idempotency-Key`` header names the first job, for the same API
key only; ``qlgate jobs submit`` sends a key of its own on every try."""

from __future__ import annotations

import aiohttp

from qlgate.engine.engine import Engine
from qlgate.jobs.local import LocalJobs
from qlgate.server.app import build_app
from tests.gateway_server import GatewayTestServer


async def test_post_jobs_with_the_same_idempotency_key_answers_the_first_job(tmp_path):
    (tmp_path / "tables").mkdir()
    engine = Engine(tables=tmp_path / "tables", config={})
    jobs = LocalJobs(tmp_path / "jobs.sqlite")  # not started: the jobs stay queued
    server = GatewayTestServer(build_app(engine, jobs=jobs), host="127.0.0.1")
    await server.start_server()
    try:
        async with aiohttp.ClientSession(base_url=str(server.make_url(""))) as client:

            async def submit(key: str | None) -> int:
                headers = {"Idempotency-Key": key} if key else {}
                async with client.post("/jobs", json={"script": "return 1;", "types": ["t"]}, headers=headers) as resp:
                    assert resp.status == 202, await resp.text()
                    return (await resp.json())["id"]

            first = await submit("order-42")
            assert await submit("order-42") == first  # the retry
            assert await submit("order-43") != first
            assert await submit(None) != await submit(None)  # no key: every POST is a job
            assert len(jobs.list()) == 4
            async with client.post(
                "/jobs", json={"script": "return 1;", "types": ["t"]}, headers={"Idempotency-Key": "x" * 201}
            ) as resp:
                assert resp.status == 400 and "idempotency key" in (await resp.json())["err"]
    finally:
        await server.close()
        jobs.close()


def test_a_submission_whose_answer_is_lost_with_the_connection_is_queued_once(zk, monkeypatch):
    """The commit reaches ZooKeeper, then the connection goes before its answer: the
    client cannot tell. The job's id was chosen before the commit, so it looks for the
    job rather than queueing another."""
    from kazoo.exceptions import ConnectionLoss

    import qlgate.jobs.zk.client as client_module
    from qlgate.jobs.zk.client import ZkJobs

    real_commit, lost = client_module.commit, []

    def commit_then_lose_the_answer(tx):
        real_commit(tx)
        if not lost:
            lost.append(True)
            raise ConnectionLoss("the answer was lost")

    monkeypatch.setattr(client_module, "commit", commit_then_lose_the_answer)
    jobs = ZkJobs(zk)
    try:
        job_id = jobs.submit("return 1;", types=["t"])
        assert lost and [j.id for j in jobs.list()] == [job_id]
        assert len(zk.get_children("/qlgate/queue")) == 1
    finally:
        jobs.close()
