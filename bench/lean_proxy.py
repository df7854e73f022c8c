"""The lean floor (issue 29): the leanest one-hop proxy we could write in Python, to weigh
what serving one request through qlgate costs beyond moving its bytes.

    python bench/lean_proxy.py PORT UPSTREAM_URL

An asyncio Protocol (uvloop when installed) reads requests with httptools; each is sent to
the upstream over a keep-alive pool of upstream connections (asyncio Protocols too, answers
read with httptools' response parser) and the upstream's body goes back as JSON. ``GET /``
forwards to UPSTREAM_URL; ``GET /?q=x7`` forwards to UPSTREAM_URL's path with the query
``q=x7`` (so that each request can be its own). Callbacks only, no task per request, no
headers looked at: one request at a time per client connection (no pipelining), an answer
of the upstream other than 200 is passed on as a 502. Nothing else: no limits, no timeouts,
no logging.
"""

from __future__ import annotations

import asyncio
import sys
import urllib.parse
from collections.abc import Callable

import httptools

Reply = Callable[[int, bytes], None]


class Upstream(asyncio.Protocol):
    """One keep-alive connection to the upstream, one request at a time."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.parser = httptools.HttpResponseParser(self)
        self.reply: Reply | None = None
        self.body: list[bytes] = []
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def send(self, path: bytes, reply: Reply) -> None:
        self.reply = reply
        self.body = []
        self.transport.write(b"GET " + path + self.pool.tail)

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            self.transport.close()

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        reply, self.reply = self.reply, None
        status = self.parser.get_status_code()
        if self.parser.should_keep_alive():
            self.pool.idle.append(self)
        else:
            self.transport.close()
        if reply is not None:
            reply(status, b"".join(self.body))

    def connection_lost(self, exc: Exception | None) -> None:
        if self in self.pool.idle:
            self.pool.idle.remove(self)
        reply, self.reply = self.reply, None
        if reply is not None:
            reply(502, b"")


class Pool:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.idle: list[Upstream] = []
        self.tail = f" HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()

    def send(self, path: bytes, reply: Reply) -> None:
        if self.idle:
            self.idle.pop().send(path, reply)
        else:
            asyncio.get_running_loop().create_task(self._connect(path, reply))

    async def _connect(self, path: bytes, reply: Reply) -> None:
        try:
            _, conn = await asyncio.get_running_loop().create_connection(lambda: Upstream(self), self.host, self.port)
        except OSError:
            reply(502, b"")
            return
        conn.send(path, reply)


class Client(asyncio.Protocol):
    """One client connection: a request read whole is forwarded, its answer written."""

    def __init__(self, pool: Pool, path: bytes, default_query: bytes) -> None:
        self.pool, self.path, self.default_query = pool, path, default_query
        self.parser = httptools.HttpRequestParser(self)
        self.url = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            self.transport.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            self.transport.close()

    def on_url(self, url: bytes) -> None:
        self.url += url

    def on_message_complete(self) -> None:
        url, self.url = self.url, b""
        mark = url.find(b"?")
        query = url[mark + 1 :] if mark >= 0 else self.default_query
        keep_alive = self.parser.should_keep_alive()

        def reply(status: int, body: bytes) -> None:
            transport = self.transport
            if transport.is_closing():
                return
            if status != 200:
                transport.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            else:
                transport.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                    + str(len(body)).encode()
                    + b"\r\n\r\n"
                    + body
                )
            if not keep_alive:
                transport.close()

        self.pool.send(self.path + b"?" + query if query else self.path, reply)


async def main(port: int, upstream: str) -> None:
    target = urllib.parse.urlsplit(upstream)
    pool = Pool(target.hostname or "127.0.0.1", target.port or 80)
    path, query = (target.path or "/").encode(), target.query.encode()
    server = await asyncio.get_running_loop().create_server(
        lambda: Client(pool, path, query), "127.0.0.1", port, backlog=2048
    )
    await server.serve_forever()


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        asyncio.run(main(int(sys.argv[1]), sys.argv[2]))
    except KeyboardInterrupt:
        sys.exit(0)
