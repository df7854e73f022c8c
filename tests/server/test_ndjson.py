"""Large results as NDJSON through the real gateway on 127.0.0.1: ``Accept:
application/x-ndjson`` on ``/q``, a route and a job's result answers one row per
line, chunked, compressed as asked; while the client does not read, the gateway
holds a bounded amount of the answer, not the whole encoded result."""

from __future__ import annotations

import asyncio
import gzip
import json
import socket
import time
from types import SimpleNamespace

import aiohttp
import pytest

from qlgate.jobs.factory import open_job_backend
from qlgate.server.app import build_app
from qlgate.server.ndjson import stored_rows
from tests.conftest import served, served_server
from tests.gateway_server import GatewayTestServer

NDJSON = {"Accept": "application/x-ndjson"}
TABLES = {"rows.ql": "create table rows on select get from '{config.base}/rows'"}
ROUTES = {"rows.ql": "return select * from rows via route '/rows' using method get;"}
ROWS = [{"n": i, "text": f"row {i}, with a comma]"} for i in range(500)]


@pytest.fixture
async def gateway(upstream, engine_for):
    upstream.reply("GET", "/rows", json_body=ROWS)
    async with served(engine_for(TABLES, routes=ROUTES)) as session:
        yield session


def lines(body: bytes) -> list:
    assert body.endswith(b"\n")
    return [json.loads(line) for line in body.split(b"\n")[:-1]]


@pytest.mark.parametrize("path", ["/q?s=return%20select%20*%20from%20rows;", "/rows"])
async def test_q_and_routes_answer_a_row_per_line(gateway, path):
    async with gateway.get(path, headers=NDJSON) as resp:
        assert resp.status == 200 and resp.content_type == "application/x-ndjson"
        assert resp.headers["Transfer-Encoding"] == "chunked" and "request-id" in resp.headers
        assert lines(await resp.read()) == ROWS
    async with gateway.get(path) as resp:  # without the Accept, one JSON document as before
        assert resp.content_type == "application/json" and await resp.json() == ROWS


async def test_a_value_that_is_not_a_list_is_one_line_and_no_value_none(gateway):
    async with gateway.get("/q", params={"s": 'return {"a": [1, 2]};'}, headers=NDJSON) as resp:
        assert await resp.read() == b'{"a":[1,2]}\n'
    async with gateway.get("/q", params={"s": 'return "{nothing}";'}, headers=NDJSON) as resp:
        assert resp.status == 200 and await resp.read() == b""


async def test_json_weighted_above_ndjson_keeps_json(gateway):
    accept = {"Accept": "application/x-ndjson;q=0.5, application/json"}
    async with gateway.get("/rows", headers=accept) as resp:
        assert resp.content_type == "application/json"


async def test_errors_keep_their_json_answer_and_diagnostics_are_refused(gateway):
    async with gateway.get("/q", params={"s": "return selec 1;"}, headers=NDJSON) as resp:
        assert resp.status == 400 and (await resp.json())["type"] == "QlSyntaxError"
    async with gateway.get("/rows", params={"diagnostics": "1"}, headers=NDJSON) as resp:
        answer = await resp.json()
        assert resp.status == 406 and answer["type"] == "NotAcceptable" and "diagnostics" in answer["err"]


async def test_gzip_is_applied_chunk_by_chunk(gateway):
    headers = {**NDJSON, "Accept-Encoding": "gzip"}
    async with gateway.get("/rows", headers=headers, auto_decompress=False) as resp:
        assert resp.headers["Content-Encoding"] == "gzip"
        assert lines(gzip.decompress(await resp.read())) == ROWS


def raw_get(port: int, path: str, version: str = "1.1", rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(30)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/{version}\r\nHost: 127.0.0.1\r\nAccept: application/x-ndjson\r\n\r\n".encode())
    return sock


def read_all(sock: socket.socket) -> bytes:
    data = bytearray()
    while chunk := sock.recv(65536):
        data += chunk
    return bytes(data)


async def test_http_1_0_gets_the_rows_until_the_close(gateway, upstream, engine_for):
    async with served_server(engine_for(TABLES, routes=ROUTES)) as (server, _):
        sock = raw_get(server.port, "/rows", version="1.0")
        data = await asyncio.to_thread(read_all, sock)
        sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    assert b"Transfer-Encoding" not in head and b"Connection: close" in head
    assert lines(body) == ROWS


@pytest.mark.large
async def test_a_client_that_does_not_read_holds_the_gateway_to_a_few_chunks(upstream, engine_for):
    """20 MB of rows to a client that stops reading: the gateway's unsent bytes stay
    within a few chunks (sent as one body, they would be most of the 20 MB); the
    rows still arrive whole once it reads again."""
    big = [{"n": i, "pad": "x" * 180} for i in range(100_000)]
    upstream.reply("GET", "/rows", json_body=big)
    async with served_server(engine_for(TABLES, {"maxResponseLength": 50_000_000}, routes=ROUTES)) as (server, _):
        sock = raw_get(server.port, "/rows", rcvbuf=65536)
        first = await asyncio.to_thread(sock.recv, 4096)
        assert first.startswith(b"HTTP/1.1 200") and b"application/x-ndjson" in first
        (connection,) = server.server.connections
        deadline = time.monotonic() + 30
        while connection.writable is None or connection.writable.done():  # the client's side is full
            assert time.monotonic() < deadline, "the gateway never waited for the client"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # were it to go on writing, it would be now
        held = connection.transport.get_write_buffer_size()
        assert held < 1_000_000, f"{held:,} bytes unsent held by the gateway"
        rest = await asyncio.to_thread(read_all_chunked, sock)
        sock.close()
    body = dechunk((first + rest).partition(b"\r\n\r\n")[2])
    assert len(lines(body)) == len(big) and lines(body)[-1] == big[-1]


def read_all_chunked(sock: socket.socket) -> bytes:
    data = bytearray()
    while not data.endswith(b"\r\n0\r\n\r\n"):
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        data += chunk
    return bytes(data)


def dechunk(data: bytes) -> bytes:
    out, index = bytearray(), 0
    while True:
        end = data.index(b"\r\n", index)
        size = int(data[index:end], 16)
        if size == 0:
            return bytes(out)
        out += data[end + 2 : end + 2 + size]
        index = end + 4 + size


@pytest.mark.parametrize(
    "stored",
    [
        b'[{"a":"x,]\\"y"},[1,[2]],3,"s",null]',
        b"[ ]",
        b'{"one":"value"}',
        b' [ 1 , {"b" : 2} ] ',
        b'[{\n  "pretty": [1,\n 2]\n}, {"a":\n"b\\nc"}]',
        b'{\n"one": 1\n}',
    ],
)
def test_stored_results_are_split_into_rows_without_a_tree(stored):
    lines = list(stored_rows(stored))
    assert not any(b"\n" in line for line in lines)  # each row one line, however it was stored
    rows = [json.loads(row) for row in lines]
    value = json.loads(stored)
    assert rows == (value if isinstance(value, list) else [value])


async def test_a_jobs_result_as_ndjson(upstream, engine_for, tmp_path):
    upstream.reply("GET", "/rows", json_body=ROWS)
    engine = engine_for(TABLES, config={"jobs": {"database": str(tmp_path / "jobs.sqlite"), "slots": 1}})
    jobs, stop_jobs = open_job_backend(SimpleNamespace(zookeeper=None), engine, runs_jobs=True)
    app = build_app(engine, jobs=jobs)
    app.on_close(stop_jobs)
    async with GatewayTestServer(app) as server:
        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(base_url=server.make_url(""), timeout=timeout) as session:
            async with session.post("/jobs", json={"script": "return select * from rows;"}) as resp:
                job = (await resp.json())["id"]
            async with session.get(f"/jobs/{job}", params={"wait": "20"}) as resp:
                assert (await resp.json())["state"] == "done"
            async with session.get(f"/jobs/{job}/result", headers=NDJSON) as resp:
                assert resp.content_type == "application/x-ndjson" and lines(await resp.read()) == ROWS


async def test_a_client_gone_mid_stream_or_asking_head_ends_the_stream_quietly(upstream, engine_for, caplog):
    upstream.reply("GET", "/rows", json_body=[{"n": i, "pad": "x" * 180} for i in range(20_000)])
    async with served_server(engine_for(TABLES, routes=ROUTES)) as (server, session):
        sock = raw_get(server.port, "/rows", rcvbuf=16384)
        assert (await asyncio.to_thread(sock.recv, 1024)).startswith(b"HTTP/1.1 200")
        sock.close()  # gone, four megabytes of rows unsent
        deadline = time.monotonic() + 30
        while server.server.connections:
            assert time.monotonic() < deadline, "the connection outlived its client"
            await asyncio.sleep(0.05)
        async with session.head("/rows", headers=NDJSON) as resp:
            assert resp.status == 200 and await resp.read() == b""
        async with session.get("/rows", headers=NDJSON) as resp:  # and it serves on
            assert len(lines(await resp.read())) == 20_000
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")], caplog.text
