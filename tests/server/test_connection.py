"""The gateway's HTTP/1.1 connection (``qlgate/server/connection.py``), spoken to in
raw bytes over a real socket: every endpoint on one connection, in order, within
the limits a connection holds to."""

from __future__ import annotations

import asyncio
import json
import select
import socket
import urllib.parse

import pytest

from qlgate.server import connection as front
from tests.conftest import cyclic_garbage, served_server

TABLES = {
    "items.ql": "create table items on select get from '{config.base}/items?q={q}' resultset 'items'",
    "big.ql": "create table big on select get from '{config.base}/big'",  # a 60 KB answer
}
ROUTES = {
    "items.ql": "return select id from items where q = '{q}' via route '/items?q={q}' using method get;",
    # a header whose value the caller chooses
    "echo.ql": "return \"{order}\" via route '/echo?order={order}' using method get using headers 'X-Order' = '{order}';",
}
SCRIPT = b"select%20id%20from%20items%20where%20q%20%3D%20%22x%22"


@pytest.fixture
async def gateway(upstream, engine_for):
    upstream.reply("GET", "/items", json_body={"items": [{"id": "1"}, {"id": "2"}]})
    upstream.reply("GET", "/big", json_body="x" * 60000)
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


async def test_every_endpoint_is_served_on_the_same_connection(gateway):
    reader, writer = await connect(gateway)
    for target, check in (
        (b"/q?s=" + SCRIPT, lambda body: json.loads(body) == ["1", "2"]),
        (b"/health", lambda body: json.loads(body)["status"] == "ok"),
        (b"/tables", lambda body: {t["name"] for t in json.loads(body)} == {"items", "big"}),
        (b"/console/static/api.js", lambda body: b"fetch" in body),
        (b"/items?q=x", lambda body: json.loads(body) == ["1", "2"]),
    ):
        writer.write(get(target))
        status, headers, body = await read_answer(reader)
        assert status == 200 and check(body), (target, status, body[:200])
        assert "connection" not in headers
    writer.close()


async def test_pipelined_requests_are_answered_in_order(gateway):
    reader, writer = await connect(gateway)
    writer.write(get(b"/q?s=return%201%3B") + get(b"/q?s=" + SCRIPT) + get(b"/q?s=return%203%3B"))
    answers = [json.loads((await read_answer(reader))[2]) for _ in range(3)]
    assert answers == [1, ["1", "2"], 3]
    writer.close()


async def test_pipelined_requests_for_every_endpoint_are_answered_in_order(gateway):
    reader, writer = await connect(gateway)
    writer.write(get(b"/q?s=return%201%3B") + get(b"/health") + get(b"/nope") + get(b"/q?s=return%202%3B"))
    answers = [await read_answer(reader) for _ in range(4)]
    assert [a[0] for a in answers] == [200, 200, 404, 200]
    assert (answers[0][2], answers[3][2]) == (b"1", b"2") and "connection" not in answers[3][1]
    writer.close()


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
    monkeypatch.setattr(front, "IDLE_TIMEOUT_S", 60)  # the read timeout is its own, not the idle wait's
    reader, writer = await connect(gateway)
    writer.write(b"G")
    assert (await asyncio.wait_for(read_answer(reader), 5))[0] == 408


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


async def test_trailers_are_bounded_like_a_head(gateway):
    """httptools gathers a trailer in memory: one that never ends is refused, not kept."""
    answer = await asyncio.get_running_loop().run_in_executor(None, flood_a_trailer, gateway.port)
    status_line, _, body = answer.partition(b"\r\n\r\n")
    assert status_line.startswith(b"HTTP/1.1 400 ") and b"over the size limit" in body


def flood_a_trailer(port: int) -> bytes:
    """Send a chunked body whose trailer never ends, until an answer comes (at most
    40 MiB, far past the bound: a head's fields, 64 KiB); what came back."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(b"POST /q HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        conn.sendall(b"9\r\nreturn 1;\r\n0\r\nX-T: ")
        got = b""
        for _ in range(40):
            try:
                conn.sendall(b"a" * (1 << 20))
            except OSError:
                break
            ready, _, _ = select.select([conn], [], [], 0)
            if ready:
                break
        try:
            while chunk := conn.recv(65536):
                got += chunk
        except OSError:
            pass
        return got


async def test_100_continue_waits_for_the_answers_before_it(gateway):
    reader, writer = await connect(gateway)
    writer.write(
        get(b"/q?s=" + SCRIPT) + b"POST /q HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 9\r\nExpect: 100-continue\r\n\r\n"
    )
    assert json.loads((await read_answer(reader))[2]) == ["1", "2"]
    assert await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5) == b"HTTP/1.1 100 Continue\r\n\r\n"
    writer.write(b"return 2;")
    assert (await read_answer(reader))[2] == b"2"
    writer.close()


async def test_a_closing_connection_delivers_its_last_answer_whole(gateway):
    """The client has not read the answer yet and has sent more: closing straight away
    would reset the connection and cut the answer short."""
    script = 'return "' + "x" * 60000 + '";'
    target = b"/q?s=" + urllib.parse.quote(script).encode()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", gateway.port))
    reader, writer = await asyncio.open_connection(sock=sock)
    # the second request is malformed: the first is answered, then the 400, then the close
    writer.write(get(target) + b"NOT HTTP\r\n\r\n" + get(b"/q?s=return%201%3B") * 2000)
    await asyncio.sleep(0.5)  # the gateway answers and closes while nothing is read
    status, _, body = await read_answer(reader)
    assert (status, len(body)) == (200, 60002)
    status, headers, _ = await read_answer(reader)
    assert (status, headers["connection"]) == (400, "close")
    assert await closes(reader)


async def test_pipelined_requests_wait_unread_once_16_wait_for_answers(gateway):
    """A client that pipelines and does not read: the gateway stops parsing, not just
    reading, once ``MAX_QUEUED`` requests wait for their answers (give or take the
    requests of the last slice it parsed, ``FEED_BYTES``)."""
    request = get(b"/q?s=select%20*%20from%20big")  # 60 KB answers: more than sockets hold unread
    reader, writer = await connect(gateway)
    writer.write(request * 1000)
    await asyncio.sleep(0.5)
    (connection,) = gateway.server.connections
    assert 0 < len(connection.queue) <= front.MAX_QUEUED + front.FEED_BYTES // len(request)
    for _ in range(20):
        assert len((await read_answer(reader))[2]) == 60002
    writer.close()


async def test_each_answer_has_its_own_requests_http_version(gateway):
    reader, writer = await connect(gateway)
    writer.write(
        b"GET /q?s=return%201%3B HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"
        + get(b"/q?s=return%202%3B")
    )
    first = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert first.startswith(b"HTTP/1.0 200") and b"Connection: keep-alive" in first
    await reader.readexactly(1)
    second = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert second.startswith(b"HTTP/1.1 200") and b"Connection:" not in second
    writer.close()


async def test_a_control_character_never_reaches_an_answers_headers(gateway):
    reader, writer = await connect(gateway)
    writer.write(get(b"/echo?order=ab"))
    assert (await read_answer(reader))[1]["x-order"] == "ab"
    writer.write(get(b"/echo?order=a%00b"))
    raw = await asyncio.wait_for(reader.read(), 5)  # answered, and the connection closed
    assert raw.startswith(b"HTTP/1.1 500 ") and b"\x00" not in raw and b'"internal error"' in raw


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /q?s=return%201%3B HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n",
        b"GET /q?s=return%201%3B HTTP/1.1\r\n\r\n",
        get(b"/q?s=return%201%3B", b"Content-Type: text/plain", b"Content-Type: application/json"),
    ],
    ids=["two hosts", "no host", "two content types"],
)
async def test_a_missing_or_repeated_host_is_400(gateway, request_bytes):
    reader, writer = await connect(gateway)
    writer.write(request_bytes)
    status, _, body = await read_answer(reader)
    assert status == 400 and json.loads(body)["err"].startswith("the request is malformed: ")


async def test_a_fragment_in_the_target_is_not_part_of_the_path(gateway):
    reader, writer = await connect(gateway)
    writer.write(get(b"/q?s=return%201%3B#top"))
    assert (await read_answer(reader))[2] == b"1"
    writer.write(get(b"/items#top?q=x"))  # the query is in the fragment: none
    assert (await read_answer(reader))[0] == 400
    writer.close()


async def test_an_expectation_other_than_100_continue_is_417(gateway):
    reader, writer = await connect(gateway)
    writer.write(b"POST /q HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\nContent-Length: 9\r\n\r\n")
    status, headers, body = await read_answer(reader)
    assert (status, headers["connection"]) == (417, "close")
    assert json.loads(body) == {
        "err": "Expect: 200-ok is not understood; the gateway knows 100-continue",
        "type": "ExpectationFailed",
        "status": 417,
    }
