"""The gateway's own HTTP/1.1 front (``qlgate/server/front.py``), spoken to in raw
bytes over a real socket: it serves ``/q`` and the routes, passes everything else
to aiohttp on the same connection, and holds the limits aiohttp held."""

from __future__ import annotations

import asyncio
import json

import pytest

from qlgate.server import front
from tests.conftest import cyclic_garbage, served_server

TABLES = {"items.ql": "create table items on select get from '{config.base}/items?q={q}' resultset 'items'"}
ROUTES = {"items.ql": "return select id from items where q = '{q}' via route '/items?q={q}' using method get;"}
SCRIPT = b"select%20id%20from%20items%20where%20q%20%3D%20%22x%22"


@pytest.fixture
async def gateway(upstream, engine_for):
    upstream.reply("GET", "/items", json_body={"items": [{"id": "1"}, {"id": "2"}]})
    engine = engine_for(TABLES, config={"gateway": {"maxBodyBytes": 1000}}, routes=ROUTES)
    async with served_server(engine) as (server, _):
        yield server


async def connect(server):
    return await asyncio.open_connection("127.0.0.1", server.port)


async def read_answer(reader: asyncio.StreamReader, head_only: bool = False) -> tuple[int, dict[str, str], bytes]:
    """One answer: its status, its headers (lower-case names) and its body."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    status_line, *lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    length = 0 if head_only else int(headers.get("content-length", "0"))
    body = await asyncio.wait_for(reader.readexactly(length), 10)
    return int(status_line.split()[1]), headers, body


async def closes(reader: asyncio.StreamReader) -> bool:
    return await asyncio.wait_for(reader.read(), 10) == b""


def get(target: bytes, *headers: bytes) -> bytes:
    return b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(h + b"\r\n" for h in headers) + b"\r\n"


async def test_q_and_routes_are_answered_on_one_kept_alive_connection(gateway):
    reader, writer = await connect(gateway)
    for target in (b"/q?s=" + SCRIPT, b"/items?q=x", b"/q?s=" + SCRIPT):
        writer.write(get(target))
        status, headers, body = await read_answer(reader)
        assert (status, json.loads(body)) == (200, ["1", "2"])
        assert headers["content-type"] == "application/json; charset=utf-8"
        assert headers["server"].startswith("qlgate/") and headers["request-id"] and "date" in headers
        assert "connection" not in headers  # HTTP/1.1 keeps it open by default
    writer.close()


async def test_the_other_endpoints_are_aiohttps_on_the_same_connection(gateway):
    """/health is served by aiohttp: the connection is handed over, and stays usable."""
    reader, writer = await connect(gateway)
    writer.write(get(b"/q?s=" + SCRIPT))
    assert (await read_answer(reader))[0] == 200
    writer.write(get(b"/health"))
    status, _, body = await read_answer(reader)
    assert status == 200 and json.loads(body)["status"] == "ok"
    writer.write(get(b"/q?s=" + SCRIPT))  # aiohttp serves /q as well once it has the connection
    assert (await read_answer(reader))[0] == 200
    writer.close()


async def test_pipelined_requests_are_answered_in_order(gateway):
    reader, writer = await connect(gateway)
    writer.write(get(b"/q?s=return%201%3B") + get(b"/q?s=" + SCRIPT) + get(b"/q?s=return%203%3B"))
    answers = [json.loads((await read_answer(reader))[2]) for _ in range(3)]
    assert answers == [1, ["1", "2"], 3]
    writer.close()


async def test_a_pipelined_request_for_aiohttp_is_left_for_the_client_to_send_again(gateway):
    """Its bytes follow another request's in one read, so they cannot be passed on whole:
    the request before it is answered with ``Connection: close``, and the connection closes."""
    reader, writer = await connect(gateway)
    writer.write(get(b"/q?s=return%201%3B") + get(b"/health"))
    status, headers, body = await read_answer(reader)
    assert (status, body, headers["connection"]) == (200, b"1", "close")
    assert await closes(reader)


async def test_head_is_the_gets_head_without_its_body(gateway):
    reader, writer = await connect(gateway)
    writer.write(get(b"/items?q=x"))
    _, got, body = await read_answer(reader)
    writer.write(b"HEAD /items?q=x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    status, headed, _ = await read_answer(reader, head_only=True)
    assert status == 200 and headed["content-length"] == got["content-length"] == str(len(body))
    writer.write(get(b"/q?s=return%201%3B"))  # nothing of a body came between
    assert (await read_answer(reader))[2] == b"1"
    writer.close()


async def test_http_1_0_closes_unless_asked_to_keep_alive(gateway):
    reader, writer = await connect(gateway)
    writer.write(b"GET /q?s=return%201%3B HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
    _, headers, _ = await read_answer(reader)
    assert headers["connection"] == "keep-alive"
    writer.write(b"GET /q?s=return%201%3B HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
    status, headers, _ = await read_answer(reader)
    assert (status, headers["connection"]) == (200, "close")
    assert await closes(reader)


async def test_a_post_body_in_chunks_and_after_100_continue(gateway):
    reader, writer = await connect(gateway)
    script = b"return select id from items where q = 'x';"
    writer.write(
        b"POST /q HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nExpect: 100-continue\r\n"
        b"Content-Length: " + str(len(script)).encode() + b"\r\n\r\n"
    )
    assert await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10) == b"HTTP/1.1 100 Continue\r\n\r\n"
    writer.write(script)
    assert json.loads((await read_answer(reader))[2]) == ["1", "2"]
    writer.write(b"POST /q HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
    for piece in (script[:10], script[10:]):
        writer.write(b"%x\r\n%s\r\n" % (len(piece), piece))
    writer.write(b"0\r\n\r\n")
    assert json.loads((await read_answer(reader))[2]) == ["1", "2"]
    writer.close()


@pytest.mark.parametrize("chunked", [False, True])
async def test_a_body_over_the_limit_is_413_and_the_connection_closes(gateway, chunked):
    reader, writer = await connect(gateway)
    if chunked:  # the limit is found while the body comes
        writer.write(b"POST /q HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        writer.write(b"%x\r\n%s\r\n" % (1500, b"x" * 1500))
    else:  # said at once, from the head: no byte of the body is sent
        writer.write(b"POST /q HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000000\r\n\r\n")
    status, headers, body = await read_answer(reader)
    assert status == 413 and headers["connection"] == "close"
    assert json.loads(body) == {
        "err": "request body is over the 1000-byte limit (gateway.maxBodyBytes)",
        "type": "PayloadTooLarge",
        "status": 413,
    }
    assert await closes(reader)


@pytest.mark.parametrize(
    "request_bytes",
    [
        get(b"/q?s=" + b"x" * 600_000),  # a URL over the request-line limit (9 bytes × maxScriptLength + 4096)
        get(b"/q", b"X-Big: " + b"y" * 9000),  # a header over 8,190 bytes
        get(b"/q", *(b"X-%d: 1" % i for i in range(200))),  # over 128 headers
    ],
    ids=["url", "header", "headers"],
)
async def test_heads_over_the_limits_are_400_in_the_error_shape(gateway, request_bytes):
    reader, writer = await connect(gateway)
    writer.write(request_bytes)
    status, headers, body = await read_answer(reader)
    assert (status, headers["connection"]) == (400, "close")
    answer = json.loads(body)
    assert list(answer) == ["err", "type", "status"] and answer["err"].startswith("the request is malformed")
    assert await closes(reader)


async def test_a_slow_request_is_408_and_an_idle_connection_closes(gateway, monkeypatch):
    monkeypatch.setattr(front, "READ_TIMEOUT_S", 0.3)
    monkeypatch.setattr(front, "IDLE_TIMEOUT_S", 0.3)
    reader, writer = await connect(gateway)
    writer.write(b"GET /q?s=return%201%3B HTTP/1.1\r\nHost: 127.")  # and nothing more
    status, _, body = await read_answer(reader)
    assert status == 408 and json.loads(body)["type"] == "RequestTimeout"
    assert await closes(reader)
    reader, writer = await connect(gateway)
    writer.write(get(b"/q?s=return%201%3B"))
    assert (await read_answer(reader))[0] == 200
    assert await closes(reader)  # no second request within IDLE_TIMEOUT_S


async def test_a_served_request_leaves_no_cycles_for_the_collector(gateway):
    reader, writer = await connect(gateway)
    for _ in range(3):  # warm: the script compiled, the pools open
        writer.write(get(b"/q?s=" + SCRIPT))
        await read_answer(reader)

    async def one() -> None:
        writer.write(get(b"/q?s=" + SCRIPT))
        await read_answer(reader)

    assert await cyclic_garbage(one) == []
    writer.close()
