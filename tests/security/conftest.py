"""A gateway on 127.0.0.1 over tables written into a temp dir, for the attacks
of issue 13 and their fixes: each test says what an attacker sends and what
must (not) happen."""

from __future__ import annotations

import contextlib

import aiohttp
import pytest

from qlgate.server.app import build_app
from tests.gateway_server import GatewayTestServer

SECRET = "s3cr3t-t0ken-value"


@pytest.fixture
async def gateway(engine_for):
    """``async with gateway(tables, config, jobs=…) as client``: a served gateway and a
    client session for it; ``config`` is laid over ``{"base": upstream, "svc": {"token": SECRET}}``."""

    @contextlib.asynccontextmanager
    async def start(tables=None, config=None, *, jobs=None, routes=None, **app_options):
        engine = engine_for(
            tables or {}, config={"svc": {"token": SECRET, "site": "EBAY-US"}, **(config or {})}, routes=routes
        )
        server = GatewayTestServer(build_app(engine, jobs=jobs, **app_options), host="127.0.0.1")
        await server.start_server()
        try:
            async with aiohttp.ClientSession(base_url=str(server.make_url(""))) as client:
                yield client
        finally:
            await server.close()

    return start
