"""The client's own HTTP/1.1 (``qlgate/http/wire.py``, ``pool.py``, ``head.py``) against
servers that misbehave on purpose: each test's server is a few lines of asyncio that
write exactly the bytes under test — bad chunk sizes, a lying Content-Length, a
trickling or silent body, an early close, a header flood — and the client must answer
with a typed error (or the right answer), never a hang, a short body taken as whole or
a poisoned keep-alive connection."""

from __future__ import annotations

import asyncio
import gzip
import socket
import ssl
import struct
import time
from collections.abc import Awaitable, Callable

import pytest
import trustme

from qlgate.errors import UpstreamTimeout, UpstreamUnavailable
from qlgate.http.client import HttpClient, HttpRequest
from qlgate.http.head import split_url
from qlgate.http.proxy import ProxyServer, ProxySettings

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter, "Raw"], Awaitable[None]]


class Raw:
    """A loopback server whose every connection runs ``handler``; it counts connections
    and records each request's head."""

    def __init__(self, handler: Handler, context: ssl.SSLContext | None = None) -> None:
        self.handler = handler
        self.context = context
        self.connections = 0
        self.heads: list[bytes] = []
        self.server: asyncio.Server | None = None

    async def __aenter__(self) -> Raw:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.context)
        port = self.server.sockets[0].getsockname()[1]
        self.base = f"{'https' if self.context else 'http'}://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            await self.handler(reader, writer, self)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass  # the client went, or the test ended
        finally:
            writer.close()

    async def head(self, reader: asyncio.StreamReader) -> bytes:
        head = await reader.readuntil(b"\r\n\r\n")
        self.heads.append(head)
        length = next(
            (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")),
            0,
        )
        if length:
            await reader.readexactly(length)
        return head


def answer(body: bytes, *extra: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n%s\r\n%s" % (
        len(body),
        b"".join(e + b"\r\n" for e in extra),
        body,
    )


def serve_each(*answers: bytes) -> Handler:
    """Answer the requests of a connection with ``answers`` in turn, then keep it open."""

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, server: Raw) -> None:
        for data in answers:
            await server.head(reader)
            writer.write(data)
            await writer.drain()
        await reader.read()

    return handler


def write_then_close(data: bytes) -> Handler:
    """Answer the connection's first request with ``data``, then close it."""

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, server: Raw) -> None:
        await server.head(reader)
        writer.write(data)
        await writer.drain()

    return handler


@pytest.fixture
async def client():
    c = HttpClient(max_response_bytes=10_000)
    yield c
    await c.close()


def get(server: Raw, path: str = "/", **kw) -> HttpRequest:
    return HttpRequest("GET", server.base + path, {}, **kw)


async def test_a_bad_chunk_size_is_a_malformed_answer(client):
    bad = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"
    async with Raw(serve_each(bad)) as server:
        with pytest.raises(UpstreamUnavailable, match=r"bad response from .*malformed answer"):
            await client.send(get(server))


async def test_chunked_answers_are_joined_and_decoded(client):
    packed = gzip.compress(b'{"ok": true}')
    chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n"
    chunked += b"".join(b"%x\r\n%s\r\n" % (len(packed[i : i + 7]), packed[i : i + 7]) for i in range(0, len(packed), 7))
    chunked += b"0\r\n\r\n"
    async with Raw(serve_each(chunked)) as server:
        response = await client.send(get(server))
        assert response.body == b'{"ok": true}' and response.wire_bytes == len(packed)


async def test_a_content_length_longer_than_the_body_then_a_close_is_an_error_not_a_short_body(client):
    lying = write_then_close(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b")
    async with Raw(lying) as server:
        with pytest.raises(UpstreamUnavailable, match="closed before the answer ended"):
            await client.send(get(server))


async def test_a_content_length_longer_than_the_body_on_an_open_connection_times_out(client):
    async def lying(reader, writer, server):
        await server.head(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b")
        await writer.drain()
        await asyncio.sleep(5)

    async with Raw(lying) as server:
        started = time.monotonic()
        with pytest.raises(UpstreamTimeout, match="timed out after 200 ms"):
            await client.send(get(server, timeout_ms=200))
        assert time.monotonic() - started < 2


async def test_bytes_beyond_the_declared_length_retire_the_connection(client):
    """A server that sends more than it declared must not have the surplus read as the
    next answer: the connection is closed, the next request gets a new one."""
    async with Raw(serve_each(answer(b"first") + b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nEVIL!")) as server:
        assert (await client.send(get(server))).body == b"first"
        await asyncio.sleep(0.05)
        server.handler = serve_each(answer(b"second"))
        assert (await client.send(get(server))).body == b"second"
        assert server.connections == 2


async def test_a_trickling_body_stays_alive_and_a_silent_one_times_out(client):
    """The timeout is an idle timeout (spec §10.6): bytes every 100 ms keep a 300 ms call alive
    for a second; a server that stops for longer ends it."""

    async def trickle(reader, writer, server):
        await server.head(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
        for byte in b"0123456789":
            await asyncio.sleep(0.1)
            writer.write(bytes([byte]))
            await writer.drain()
        await reader.read()

    async def stalls(reader, writer, server):
        await server.head(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01234")
        await writer.drain()
        await asyncio.sleep(5)

    async with Raw(trickle) as server:
        assert (await client.send(get(server, timeout_ms=300))).body == b"0123456789"
    async with Raw(stalls) as server:
        with pytest.raises(UpstreamTimeout):
            await client.send(get(server, timeout_ms=300))


async def test_a_close_without_an_answer_is_retried_once_for_reads(client):
    async def hang_up(reader, writer, server):
        await server.head(reader)

    async with Raw(hang_up) as server:
        with pytest.raises(UpstreamUnavailable, match="closed the connection without answering"):
            await client.send(get(server, retry=True))
        assert server.connections == 2
        with pytest.raises(UpstreamUnavailable):
            await client.send(HttpRequest("POST", server.base + "/", {}, b"x"))
        assert server.connections == 3


async def test_a_keep_alive_connection_the_server_dropped_is_replaced_for_a_get_not_for_a_post(client):
    """The race every pool meets: the server closes an idle connection as a request goes
    out on it. A GET is sent again on a new connection; a POST is not (it may have run)."""

    async def once_then_drop(reader, writer, server):
        await server.head(reader)
        writer.write(answer(b"ok"))
        await writer.drain()
        await server.head(reader)  # the second request on this connection: dropped unanswered

    async with Raw(once_then_drop) as server:
        assert (await client.send(get(server))).body == b"ok"
        assert (await client.send(get(server))).body == b"ok"  # no error: a new connection
        assert server.connections == 2
        with pytest.raises(UpstreamUnavailable, match="without answering"):
            await client.send(HttpRequest("POST", server.base + "/", {}, b"x"))


async def test_header_floods_are_refused(client):
    flood = b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(1000)) + b"Content-Length: 0\r\n\r\n"
    long_line = b"HTTP/1.1 200 OK\r\nX-Long: " + b"y" * 100_000 + b"\r\nContent-Length: 0\r\n\r\n"
    for data in (flood, long_line):
        async with Raw(serve_each(data)) as server:
            with pytest.raises(UpstreamUnavailable, match="head is over"):
                await client.send(get(server))


async def test_caps_on_declared_and_streamed_bodies(client):
    declared = b"HTTP/1.1 200 OK\r\nContent-Length: 20000\r\n\r\n"
    streamed = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"1000\r\n" + b"x" * 4096 + b"\r\n"
    streamed *= 1
    streamed += (b"1000\r\n" + b"x" * 4096 + b"\r\n") * 3
    async with Raw(serve_each(declared)) as server:
        with pytest.raises(UpstreamUnavailable, match="20000 bytes, over the 10000-byte limit"):
            await client.send(get(server))
    async with Raw(serve_each(streamed)) as server:
        with pytest.raises(UpstreamUnavailable, match="exceeds the 10000-byte limit"):
            await client.send(get(server))


async def test_an_http_1_0_body_ends_with_the_close(client):
    old = write_then_close(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it")
    async with Raw(old) as server:
        assert (await client.send(get(server))).body == b"all of it"
        assert client.pool.idle_count() == 0  # not kept: the close was the body's end


async def test_interim_answers_are_skipped_and_head_needs_no_body(client):
    interim = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" + answer(b"real")
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n"
    async with Raw(serve_each(interim, head, answer(b"after"))) as server:
        assert (await client.send(get(server))).body == b"real"
        response = await client.send(HttpRequest("HEAD", server.base + "/", {}))
        assert response.status == 200 and response.body == b"" and response.headers["content-length"] == "1234"
        assert (await client.send(get(server))).body == b"after"
        assert server.connections == 1


async def test_repeated_headers_are_joined(client):
    async with Raw(serve_each(answer(b"", b"X-A: 1", b"X-A: 2"))) as server:
        assert (await client.send(get(server))).headers["x-a"] == "1, 2"


async def test_the_pool_bounds_connections_across_concurrent_calls():
    async def slow(reader, writer, server):
        while True:
            await server.head(reader)
            await asyncio.sleep(0.02)
            writer.write(answer(b"ok"))
            await writer.drain()

    client = HttpClient(pool_size=2)
    try:
        async with Raw(slow) as server:
            results = await asyncio.gather(*(client.send(get(server)) for _ in range(10)))
            assert [r.body for r in results] == [b"ok"] * 10
            assert server.connections == 2
    finally:
        await client.close()


async def test_a_cancelled_call_does_not_leave_its_connection_to_the_next(client):
    async def slow_then_fast(reader, writer, server):
        await server.head(reader)
        await asyncio.sleep(0.3)
        writer.write(answer(b"late"))
        await writer.drain()
        await reader.read()

    async with Raw(slow_then_fast) as server:
        task = asyncio.create_task(client.send(get(server)))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert (await client.send(get(server, timeout_ms=2000))).body == b"late"
        assert server.connections == 2


async def test_line_breaks_in_headers_never_reach_the_wire(client):
    async with Raw(serve_each(answer(b"ok"))) as server:
        with pytest.raises(UpstreamUnavailable, match="line break"):
            await client.send(HttpRequest("GET", server.base + "/", {"x-a": "1\r\nX-Injected: yes"}))
        assert server.heads == []
        await client.send(HttpRequest("GET", server.base + "/a\r\nX-Injected: yes", {}))  # a target's are escaped
        assert server.heads[0].startswith(b"GET /a%0D%0AX-Injected:%20yes HTTP/1.1\r\n")
        assert b"\r\nX-Injected" not in server.heads[0]


async def test_targets_are_percent_encoded_and_hosts_carry_their_port(client):
    async with Raw(serve_each(answer(b"ok"))) as server:
        await client.send(HttpRequest("GET", server.base + "/café au lait?q=a b&r=%41#frag", {}))
        (head,) = server.heads
        line, host = head.split(b"\r\n")[:2]
        assert line == b"GET /caf%C3%A9%20au%20lait?q=a%20b&r=%41 HTTP/1.1"
        assert host == b"Host: " + server.base.removeprefix("http://").encode()


async def test_tls_verifies_the_certificate_and_the_host_name():
    ca = trustme.CA()
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("localhost").configure_cert(server_context)  # not for 127.0.0.1
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    for context, expected in ((None, "certificate verify failed"), (trusting, "match|mismatch")):
        client = HttpClient(ssl_context=context)
        try:
            async with Raw(serve_each(answer(b"secret")), server_context) as server:
                with pytest.raises(UpstreamUnavailable, match=expected):
                    await client.send(get(server))
                port = server.base.rsplit(":", 1)[1]
                if context is trusting:  # the right name, the right CA: answered
                    response = await client.send(HttpRequest("GET", f"https://localhost:{port}/", {}))
                    assert response.body == b"secret"
        finally:
            await client.close()


# ------------------------------------------------------------------ found by review


async def test_one_endless_header_line_is_refused_as_it_grows(client):
    """The parser gathers a line whole before it reports it: the head is measured as it
    arrives, so a line that never ends is refused once past 64 KB — not after the server
    stops sending, nor at the idle timeout (which a steady trickle would never reach)."""

    async def endless(reader, writer, server):
        await server.head(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nX-Flood: ")
        while True:
            writer.write(b"y" * 16384)
            await writer.drain()
            await asyncio.sleep(0.01)

    async with Raw(endless) as server:
        started = time.monotonic()
        with pytest.raises(UpstreamUnavailable, match="head is over 65536 bytes"):
            await client.send(get(server, timeout_ms=5000))
        assert time.monotonic() - started < 2


async def test_chunked_is_recognised_in_any_case_so_a_cut_body_is_an_error(client):
    cut = write_then_close(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n6\r\n[1,2,3")
    async with Raw(cut) as server:
        with pytest.raises(UpstreamUnavailable, match="closed before the answer ended"):
            await client.send(get(server))


async def test_a_reset_is_not_the_end_of_a_body_ended_by_the_close(client):
    async def reset(reader, writer, server):
        await server.head(reader)
        writer.write(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n[1,2,3,")
        await writer.drain()
        await asyncio.sleep(0.1)
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()

    async with Raw(reset) as server:
        with pytest.raises(UpstreamUnavailable, match="closed before the answer ended"):
            await client.send(get(server))


async def test_header_values_are_utf8_and_a_redirect_keeps_its_characters(client):
    async def redirect(reader, writer, server):
        while True:
            head = await server.head(reader)
            if head.startswith(b"GET / "):
                writer.write("HTTP/1.1 302 Found\r\nLocation: /café\r\nContent-Length: 0\r\n\r\n".encode())
            else:
                writer.write(answer(b"moved", "X-Name: café".encode()))
            await writer.drain()

    async with Raw(redirect) as server:
        response = await client.send(get(server))
        assert response.url == server.base + "/café" and response.headers["x-name"] == "café"
        assert server.heads[1].startswith(b"GET /caf%C3%A9 HTTP/1.1")


async def test_a_field_with_one_value_said_twice_keeps_the_last(client):
    twice = answer(b"{}", b"Content-Type: text/plain", b"Content-Type: application/json", b"Vary: a", b"Vary: b")
    async with Raw(serve_each(twice)) as server:
        headers = (await client.send(get(server))).headers
        assert headers["content-type"] == "application/json" and headers["vary"] == "a, b"


async def test_head_and_304_answers_declare_lengths_they_do_not_send(client):
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 50000\r\n\r\n"
    not_modified = b"HTTP/1.1 304 Not Modified\r\nContent-Length: 50000\r\n\r\n"
    async with Raw(serve_each(head, not_modified, answer(b"after"))) as server:
        assert (await client.send(HttpRequest("HEAD", server.base + "/", {}))).status == 200
        assert (await client.send(get(server))).status == 304
        assert (await client.send(get(server))).body == b"after"


async def test_user_and_password_in_the_url_are_sent_as_basic_auth(client):
    async with Raw(serve_each(answer(b"ok"), answer(b"ok"))) as server:
        base = server.base.replace("http://", "http://user:s%3Acret@")
        await client.send(HttpRequest("GET", base + "/", {}))
        await client.send(HttpRequest("GET", base + "/", {"authorization": "Bearer own"}))
        assert b"authorization: Basic dXNlcjpzOmNyZXQ=\r\n" in server.heads[0]
        assert b"Basic" not in server.heads[1] and b"authorization: Bearer own" in server.heads[1]


def test_targets_and_hosts_are_encoded_as_browsers_do():
    origin, target = split_url("http://straße.de/a[1]/100%/%41?q=[x]")
    assert origin.host == "xn--strae-oqa.de"  # IDNA 2008 (Python's codec would say strasse.de)
    assert target == "/a%5B1%5D/100%25/%41?q=%5Bx%5D"
    origin, target = split_url("http://[::1]:8080/x")
    assert (origin.host, origin.port, origin.host_header) == ("::1", 8080, "[::1]:8080")


async def test_a_call_waiting_for_room_in_a_full_pool_times_out():
    async def slow(reader, writer, server):
        await server.head(reader)
        await asyncio.sleep(2)
        writer.write(answer(b"ok"))
        await writer.drain()

    client = HttpClient(pool_size=1)
    try:
        async with Raw(slow) as server:
            first = asyncio.create_task(client.send(get(server, timeout_ms=5000)))
            await asyncio.sleep(0.05)
            started = time.monotonic()
            with pytest.raises(UpstreamTimeout):
                await client.send(get(server, timeout_ms=300))
            assert time.monotonic() - started < 1.5
            first.cancel()
    finally:
        await client.close()


async def test_a_woken_waiter_that_is_cancelled_passes_the_room_on():
    """Three calls, room for one: when the first is done, the second is woken and cancelled
    before it runs; the third must still get the connection."""

    async def serve(reader, writer, server):
        while True:
            await server.head(reader)
            await asyncio.sleep(0.2)
            writer.write(answer(b"ok"))
            await writer.drain()

    client = HttpClient(pool_size=1)
    try:
        async with Raw(serve) as server:
            first = asyncio.create_task(client.send(get(server, timeout_ms=5000)))
            await asyncio.sleep(0.05)
            second = asyncio.create_task(client.send(get(server, timeout_ms=5000)))
            await asyncio.sleep(0.01)
            third = asyncio.create_task(client.send(get(server, timeout_ms=5000)))
            await asyncio.sleep(0.01)
            pool = client.pool
            wake = pool._wake

            def wake_then_cancel_the_woken() -> None:
                wake()
                second.cancel()  # woken, not yet run: its room must not be lost
                pool._wake = wake

            pool._wake = wake_then_cancel_the_woken
            assert (await first).body == b"ok"
            with pytest.raises(asyncio.CancelledError):
                await second
            assert (await asyncio.wait_for(third, 3)).body == b"ok"
    finally:
        await client.close()


async def test_a_proxy_that_never_answers_connect_keeps_no_socket_open():
    open_at_proxy = 0

    async def silent(reader, writer):
        nonlocal open_at_proxy
        open_at_proxy += 1
        try:
            await reader.read()  # until the client closes
        finally:
            open_at_proxy -= 1
            writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    proxy = ProxyServer(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}")
    client = HttpClient(proxy=ProxySettings(https=proxy))
    try:
        for _ in range(3):
            with pytest.raises(UpstreamTimeout, match="via proxy"):
                await client.send(HttpRequest("GET", "https://example.invalid/", {}, timeout_ms=200))
        await asyncio.sleep(0.2)
        assert open_at_proxy == 0 and client.pool.open_count == 0
    finally:
        await client.close()
        server.close()
