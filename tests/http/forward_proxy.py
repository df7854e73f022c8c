"""A small forward proxy on 127.0.0.1 for the outbound-proxy tests: absolute-form HTTP
forwarding and CONNECT tunnelling, with optional Basic auth (407), recording what it saw.

It does what a real proxy (squid, tinyproxy) does with the parts the tests look at: it
strips the hop-by-hop ``Proxy-Authorization`` and ``Proxy-Connection`` before forwarding,
keeps client connections alive, and can only see a tunnel's bytes as TLS.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass
class Seen:
    method: str
    target: str  # absolute URL, or host:port for CONNECT
    headers: dict[str, str]  # lower-case names
    status: int = 0  # what the proxy answered (CONNECT, 407) or relayed


@dataclass
class ForwardProxy:
    credentials: tuple[str, str] | None = None  # (user, password) the proxy demands
    connect_status: int = 200  # answer CONNECT with this (502: cannot reach the origin)
    seen: list[Seen] = field(default_factory=list)
    connections: int = 0  # client connections accepted
    port: int = 0
    _server: asyncio.base_events.Server | None = None
    _tasks: set[asyncio.Task] = field(default_factory=set)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url_with(self, user: str, password: str) -> str:
        return f"http://{user}:{password}@127.0.0.1:{self.port}"

    async def start(self) -> ForwardProxy:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self.connections += 1
        origins: dict[str, tuple[asyncio.StreamReader, asyncio.StreamWriter]] = {}
        try:
            while True:
                head = await _read_head(reader)
                if head is None:
                    return
                method, target, headers = head
                seen = Seen(method, target, headers)
                self.seen.append(seen)
                if not self._authorised(headers):
                    seen.status = 407
                    writer.write(
                        b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                        b'Proxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n'
                    )
                    await writer.drain()
                    body_length = int(headers.get("content-length", "0"))
                    if body_length:
                        await reader.readexactly(body_length)
                    continue
                if method == "CONNECT":
                    await self._tunnel(seen, reader, writer)
                    return
                if not await self._forward(seen, reader, writer, origins):
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            for _, origin in origins.values():
                origin.close()
            writer.close()
            self._tasks.discard(task)

    def _authorised(self, headers: dict[str, str]) -> bool:
        if self.credentials is None:
            return True
        token = base64.b64encode(":".join(self.credentials).encode()).decode()
        return headers.get("proxy-authorization") == f"Basic {token}"

    async def _tunnel(self, seen: Seen, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.connect_status != 200:
            seen.status = self.connect_status
            writer.write(f"HTTP/1.1 {self.connect_status} Bad Gateway\r\nContent-Length: 0\r\n\r\n".encode())
            await writer.drain()
            return
        host, _, port = seen.target.rpartition(":")
        origin_reader, origin_writer = await asyncio.open_connection(host.strip("[]"), int(port))
        seen.status = 200
        writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        await writer.drain()

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            with contextlib.suppress(OSError):
                sink.write_eof()

        try:
            await asyncio.gather(pump(reader, origin_writer), pump(origin_reader, writer))
        finally:
            origin_writer.close()

    async def _forward(
        self,
        seen: Seen,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        origins: dict[str, tuple[asyncio.StreamReader, asyncio.StreamWriter]],
    ) -> bool:
        """Forward one absolute-form request and relay its answer; False to close."""
        url = urlsplit(seen.target)
        body = await reader.readexactly(int(seen.headers.get("content-length", "0")))
        key = url.netloc
        if key not in origins:
            origins[key] = await asyncio.open_connection(url.hostname, url.port or 80)
        origin_reader, origin_writer = origins[key]
        path = (url.path or "/") + (f"?{url.query}" if url.query else "")
        lines = [f"{seen.method} {path} HTTP/1.1"]
        lines += [f"{k}: {v}" for k, v in seen.headers.items() if k not in ("proxy-authorization", "proxy-connection")]
        origin_writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        await origin_writer.drain()
        status_line = await origin_reader.readuntil(b"\r\n")
        seen.status = int(status_line.split()[1])
        answer_head = await origin_reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in answer_head.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
            if name.strip().lower() == "transfer-encoding":
                raise AssertionError("the test proxy relays Content-Length answers only")
        answer_body = await origin_reader.readexactly(length) if seen.method != "HEAD" else b""
        writer.write(status_line + answer_head + answer_body)
        await writer.drain()
        return True


async def _read_head(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str]] | None:
    try:
        raw = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    request_line, *lines = raw.decode("latin-1").split("\r\n")
    method, target, _ = request_line.split(" ", 2)
    headers = {}
    for line in lines:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    return method, target, headers
