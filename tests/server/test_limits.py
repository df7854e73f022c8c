"""What a connection may take of the gateway (``qlgate/server/limits.py``,
``connection.py``, ``server.py``), on every endpoint alike: the jobs API is
read by the same connection as ``/q`` (it was aiohttp's, behind a hand-over
that lost bytes and had no read deadline), connections are capped, the bytes
of heads held at once are budgeted, and a client that goes away mid-request
is one access-log line."""

from __future__ import annotations

import asyncio
import json
import logging
from types import SimpleNamespace

import pytest

from qlgate.jobs.factory import open_job_backend
from qlgate.server import connection
from qlgate.server.app import build_app
from tests.gateway_server import GatewayTestServer
from tests.server.test_connection import closes, read_answer

TABLES = {"items.ql": "create table items on select get from '{config.base}/items' resultset 'items'"}


@pytest.fixture
async def gateway(tmp_path, upstream, make_engine):
    """A gateway with the embedded job backend, as ``qlgate serve`` opens it."""
    upstream.reply("GET", "/items", json_body={"items": [{"id": "1"}]})
    config = {
        "base": upstream.base,
        "jobs": {"database": str(tmp_path / "jobs.sqlite"), "slots": 1},
        "gateway": {"maxConnections": 8, "maxHeadBytes": 256 * 1024},
    }
    engine = make_engine(TABLES, config)
    jobs, stop_jobs = open_job_backend(SimpleNamespace(zookeeper=None), engine, runs_jobs=True)
    app = build_app(engine, jobs=jobs)
    app.on_close(stop_jobs)
    async with GatewayTestServer(app) as server:
        yield server


async def connect(server):
    return await asyncio.open_connection("127.0.0.1", server.port)


def post_job(script: str, *headers: bytes) -> bytes:
    body = json.dumps({"script": script}).encode()
    head = (
        b"POST /jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + b"".join(h + b"\r\n" for h in headers)
        + b"Content-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
    )
    return head + body


async def test_a_job_of_6_kb_in_one_read_is_read_whole_and_the_next_request_is_its_own(gateway):
    """Head and body of a 6 KB ``POST /jobs`` in one write, and a second request behind it
    on the same connection: before, everything past the first 4,096 bytes was lost, the
    submission hung, and the second request was read as the first one's body."""
    padding = "-- " + "x" * 6000 + "\n"
    script = padding + "return select * from items;"
    reader, writer = await connect(gateway)
    writer.write(post_job(script) + b"GET /jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    status, _, body = await read_answer(reader)
    assert status == 202, body
    job = json.loads(body)["id"]
    status, _, body = await read_answer(reader)
    assert status == 200 and job in [j["id"] for j in json.loads(body)]
    writer.close()


async def test_a_body_that_never_arrives_is_408_on_the_jobs_api_too(gateway, monkeypatch):
    monkeypatch.setattr(connection, "READ_TIMEOUT_S", 0.3)
    reader, writer = await connect(gateway)
    whole = post_job("return 1;")
    writer.write(whole[: len(whole) - 5])  # the body's last bytes never come
    status, _, body = await asyncio.wait_for(read_answer(reader), 5)
    assert status == 408 and json.loads(body)["type"] == "RequestTimeout"
    assert await closes(reader)


async def test_a_client_gone_mid_body_is_one_access_log_line_and_no_traceback(gateway, caplog):
    caplog.set_level(logging.INFO)
    _, writer = await connect(gateway)
    whole = post_job("return 1;")
    writer.write(whole[: len(whole) - 5])
    await asyncio.sleep(0.1)
    writer.transport.abort()  # a reset, mid-body
    for _ in range(100):
        if any("before its request arrived" in r.getMessage() for r in caplog.records):
            break
        await asyncio.sleep(0.02)
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "qlgate.access"]
    assert [(line["method"], line["status"]) for line in lines] == [("POST", 0)]
    assert "before its request arrived" in lines[0]["error"]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


async def test_connections_beyond_the_cap_get_a_503_and_are_closed(gateway):
    held = [await connect(gateway) for _ in range(8)]
    await asyncio.sleep(0.05)
    reader, _ = await connect(gateway)
    status, headers, body = await asyncio.wait_for(read_answer(reader), 5)
    assert (status, headers["retry-after"]) == (503, "1") and "maxConnections" in json.loads(body)["err"]
    assert gateway.server.refused_connections == 1
    assert await closes(reader)
    held[0][1].close()  # one leaves: a new one is served
    await asyncio.sleep(0.05)
    reader, writer = await connect(gateway)
    writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert (await read_answer(reader))[0] == 200
    for _, other in held:
        other.close()


async def test_heads_held_at_once_are_budgeted_and_given_back_on_close(gateway):
    """Clients that each send most of a long request line and stop: once the process
    holds ``gateway.maxHeadBytes`` of heads, the next is a 503, and what the
    unfinished heads held is given back when they close."""
    budget = gateway.server.heads
    part = b"GET /q?s=" + b"x" * (60 * 1024)  # a request line that never ends
    clients = []
    for _ in range(4):  # 4 × 60 KiB: within the 256 KiB budget
        reader, writer = await connect(gateway)
        writer.write(part)
        clients.append((reader, writer))
    await asyncio.sleep(0.2)
    assert 4 * 60 * 1024 <= budget.held <= 256 * 1024
    reader, writer = await connect(gateway)
    writer.write(part)
    status, _, body = await asyncio.wait_for(read_answer(reader), 5)
    assert status == 503 and "too many request heads" in json.loads(body)["err"]
    for _, other in clients:
        other.transport.abort()
    for _ in range(50):
        if budget.held == 0:
            break
        await asyncio.sleep(0.02)
    assert budget.held == 0 and budget.refused >= 1
    reader, writer = await connect(gateway)  # and heads are read again
    writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert (await read_answer(reader))[0] == 200
