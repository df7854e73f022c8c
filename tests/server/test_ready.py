"""``GET /ready`` against real services: a gateway on ZooKeeper (its own server, so
the test can stop it), a PostgreSQL job archive and a Redis response cache is
ready while they all answer; with Redis stopped, then ZooKeeper, it answers 503
naming what is missing, while ``/health`` (liveness) stays 200."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import aiohttp
import pytest

from qlgate.jobs.factory import open_job_backend
from qlgate.server.app import build_app
from qlgate.server.readiness import checks_of
from tests.gateway_server import GatewayTestServer
from tests.servers.redis import LocalRedis, redis_binary
from tests.servers.zookeeper import LocalZooKeeper


async def get(server, path: str) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session, session.get(server.make_url(path)) as resp:
        return resp.status, await resp.json()


async def until_status(server, status: int, seconds: float = 30) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        got, body = await get(server, "/ready")
        if got == status or time.monotonic() > deadline:
            assert got == status, body
            return body
        await asyncio.sleep(0.2)


@pytest.mark.skipif(redis_binary() is None, reason="redis-server is not installed (sh .ci/install-system-packages)")
async def test_ready_names_what_is_missing(tmp_path, make_engine, pg_url):
    zookeeper = LocalZooKeeper(data_dir=tmp_path / "zk").start()
    redis = LocalRedis(tmp_path / "redis").start()
    stop_jobs = None
    try:
        config = {"cache": {"url": redis.url}, "jobs": {"database": pg_url, "sessionTimeout": 2}}
        engine = make_engine({}, config)
        jobs, stop_jobs = open_job_backend(SimpleNamespace(zookeeper=zookeeper.hosts), engine, runs_jobs=False)
        gateway = build_app(engine, jobs=jobs)
        assert set(gateway.readiness) == {"zookeeper", "archive", "redis"}
        async with GatewayTestServer(gateway) as server:
            status, body = await get(server, "/ready")
            assert status == 200, body
            assert body == {"ready": True, "checks": {"zookeeper": "ok", "archive": "ok", "redis": "ok"}}

            redis.stop()
            body = await until_status(server, 503)
            assert body["missing"] == ["redis"] and body["err"] == "not ready: redis" and body["type"] == "NotReady"
            assert body["checks"]["redis"].startswith("Redis does not answer")
            assert str(redis.port) not in str(body)  # names, never addresses
            assert (await get(server, "/health"))[0] == 200  # liveness is not readiness

            zookeeper.stop()
            deadline = time.monotonic() + 30
            while "zookeeper" not in (await get(server, "/ready"))[1].get("missing", []):
                assert time.monotonic() < deadline, "the lost session was not noticed"
                await asyncio.sleep(0.2)
            body = (await get(server, "/ready"))[1]
            assert body["missing"] == ["zookeeper", "redis"] and body["checks"]["archive"] == "ok"
            assert body["checks"]["zookeeper"].startswith("no ZooKeeper session")
    finally:
        if stop_jobs is not None:
            await asyncio.wait_for(stop_jobs(), 30)
        redis.stop()
        zookeeper.close()


async def test_a_gateway_that_needs_nothing_is_ready(make_engine):
    gateway = build_app(make_engine({}))
    assert gateway.readiness == {}
    async with GatewayTestServer(gateway) as server:
        assert await get(server, "/ready") == (200, {"ready": True, "checks": {}})


async def test_the_emulator_is_checked_where_the_config_points(make_engine):
    """``--workers``: the supervisor's emulator, which a worker knows by its address."""
    from qlgate.ports import free_port

    port = free_port()
    gateway = build_app(make_engine({}))
    gateway.readiness = checks_of(gateway, f"http://127.0.0.1:{port}")
    async with GatewayTestServer(gateway) as server:
        status, body = await get(server, "/ready")
        assert status == 503 and body["missing"] == ["emulator"]
        listening = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", port)
        async with listening:
            assert (await get(server, "/ready"))[0] == 200
