"""The gateway on its sockets: one server for every endpoint.

``Server`` listens, makes a ``Connection`` (``connection.py``) of each client
it admits (at most ``gateway.maxConnections``; the rest get a 503 and are
closed), holds the process's budget of head bytes (``limits.HeadBudget``)
and drains on shutdown: it stops accepting, closes idle connections, lets the
requests under way finish for up to the grace it is given, then cancels what
is left and closes every connection.

``serving`` is the way to run one from code (tests, embedders): the gateway
on a loopback port for the time of an ``async with``, closed after it.
``qlgate serve`` runs it until a signal (``startup.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from . import accesslog
from .connection import Connection
from .gateway import Gateway
from .limits import HeadBudget
from .reader import MAX_HEADER_BYTES
from .response import encode, problem_response

log = logging.getLogger("qlgate.server")

DRAIN_SECONDS = 30.0  # how long a shutdown lets in-flight requests finish


class Server:
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        policy = gateway.policy
        self.max_connections = policy.max_connections
        self.heads = HeadBudget(policy.max_head_bytes)
        # one request's head, and what else of a message is not its body (chunk framing, trailers)
        self.max_head_bytes = policy.max_request_line + MAX_HEADER_BYTES + 4096
        self.connections: set[Connection] = set()
        self.closing = False
        self.refused_connections = 0  # over maxConnections, since start
        self._listeners: list[asyncio.Server] = []

    # ------------------------------------------------------------------ listening
    async def listen(self, host: str, port: int, *, reuse_port: bool = False, backlog: int = 1024) -> None:
        """Listen at ``host``:``port`` (every address it resolves to). Port 0 picks a
        free one: ``port`` tells which. A port that cannot be bound raises ``OSError``."""
        loop = asyncio.get_running_loop()
        listener: asyncio.Server = await loop.create_server(
            lambda: Connection(self), host, port, reuse_address=True, reuse_port=reuse_port or None, backlog=backlog
        )
        self._listeners.append(listener)

    @property
    def addresses(self) -> list[tuple[str, int]]:
        found = []
        for listener in self._listeners:
            for sock in listener.sockets or ():
                name = sock.getsockname()
                found.append((name[0], name[1]))
        return found

    @property
    def port(self) -> int:
        return self.addresses[0][1]

    def url(self, path: str = "") -> str:
        host, port = self.addresses[0]
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{port}{path}"

    # ------------------------------------------------------------------ connections
    def admit(self, connection: Connection) -> bool:
        """Take ``connection`` on, or answer it 503 and close it (too many, or closing)."""
        transport = connection.transport
        if not self.closing and len(self.connections) < self.max_connections:
            self.connections.add(connection)
            return True
        self.refused_connections += 1
        why = "the gateway is stopping" if self.closing else f"over {self.max_connections} connections"
        accesslog.write_unanswered(self.gateway, 503, connection.remote, why)
        if transport is not None:
            refusal = problem_response(f"{why} (gateway.maxConnections); try again", status=503)
            refusal.headers["Retry-After"] = "1"
            transport.write(encode(refusal, False, False, "1.1"))
            transport.close()
        connection.closed = True
        return False

    def forget(self, connection: Connection) -> None:
        self.connections.discard(connection)

    # ------------------------------------------------------------------ stopping
    async def shutdown(self, grace: float = DRAIN_SECONDS) -> None:
        """Stop accepting; idle connections close now, busy ones after their answer;
        requests still under way after ``grace`` seconds are cancelled."""
        self.closing = True
        for listener in self._listeners:
            listener.close()
        for connection in list(self.connections):
            connection.close_if_idle()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while busy := [c.serving for c in self.connections if c.serving is not None]:
            left = deadline - loop.time()
            if left <= 0:
                for task in busy:
                    task.cancel()  # past the drain: the workspace closes next, under their feet
                await asyncio.wait(busy, timeout=1.0)
                break
            await asyncio.wait(busy, timeout=left)  # and again: a request read meanwhile is served too
        for connection in list(self.connections):
            connection.abort()
        for listener in self._listeners:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(listener.wait_closed(), 1.0)


@contextlib.asynccontextmanager
async def serving(
    gateway: Gateway, host: str = "127.0.0.1", port: int = 0, *, grace: float = 5.0
) -> AsyncIterator[Server]:
    """``gateway`` served at ``host``:``port`` while the ``async with`` lasts; then
    drained (``grace`` seconds at most) and the gateway closed."""
    server = Server(gateway)
    try:
        await server.listen(host, port)
        yield server
    finally:
        try:
            await server.shutdown(grace)
        finally:
            await gateway.close()
