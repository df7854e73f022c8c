"""The emulator on demand: its address is reserved at once (a listening socket on
127.0.0.1, so the config that points eBay's tables at it is known before any table
is compiled), and the emulator itself — aiohttp, the 10,000-listing marketplace —
is built when the first connection to that address arrives. ``qlgate run`` starts
this way: a script that calls no eBay table never pays for the emulator.

Connections that arrive while it is being built wait, their bytes kept, and are
handed to it when it is ready; later ones go to it directly. Whatever connects —
a table, an OAuth token request, a patch, a browser — starts it the same way.

When the emulator server (``server.py``) runs, none of that happens here: the socket
is handed to it, and a copy of its marketplace, built once, serves it at once.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
from typing import Any

from .endpoints import emulator_config

log = logging.getLogger("qlgate_ebay_emulator")


class LazyEmulator:
    """``await LazyEmulator().start()``: listening, not built; ``config()`` points eBay's
    tables at it; ``stop()`` closes it whether it was built or not. ``port`` 0: a free one."""

    def __init__(self, host: str = "127.0.0.1", control_token: str | None = None, port: int = 0):
        self.control_token = control_token or secrets.token_urlsafe(32)
        self._socket = socket.create_server((host, port), backlog=128)
        self._socket.setblocking(False)
        self.base = f"http://{host}:{self._socket.getsockname()[1]}"
        self._server: asyncio.AbstractServer | None = None
        self._runner: Any = None  # aiohttp's AppRunner, once built
        self._handler: Any = None  # its protocol factory (aiohttp ``web.Server``)
        self._building: asyncio.Task[None] | None = None
        self._waiting: list[_Waiting] = []
        self.sandbox: Any = None  # the emulator's ``Sandbox`` once built here (tests, diagnostics)
        self._served: socket.socket | None = None  # the emulator server's connection (server.py)

    @property
    def built(self) -> bool:
        return self._handler is not None or self._served is not None

    async def start(self) -> LazyEmulator:
        """Listening: served by the emulator server's copy of a built marketplace when one
        answers (``server.py``), else here, built on the first connection."""
        if self.served():
            return self
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._protocol, sock=self._socket)
        return self

    def served(self) -> bool:
        """Hand the address to the emulator server: whether it serves it now (else it is
        still this object's to listen on or close)."""
        from .server import hand_over

        self._served = hand_over(self._socket, self.control_token)
        if self._served is None:
            return False
        self._socket.close()  # the server's child holds the socket now
        return True

    def close(self) -> None:
        """Give the reserved address up, unstarted."""
        self._socket.close()

    def config(self) -> dict[str, Any]:
        return emulator_config(self.base)

    def _protocol(self) -> asyncio.Protocol:
        if self._handler is not None:
            protocol: asyncio.Protocol = self._handler()
            return protocol
        if self._building is None:
            self._building = asyncio.get_running_loop().create_task(self._build())
        return _Waiting(self)

    async def _build(self) -> None:
        await asyncio.sleep(0)  # the connection that asked is made (and waits) first: one path for all
        from .server import start_server

        start_server()  # this process calls the emulator: the next one is served a built one
        try:
            from aiohttp import web

            from .app import Sandbox

            sandbox = Sandbox(control_token=self.control_token)
            runner = web.AppRunner(sandbox.app(), access_log=None)
            await runner.setup()
        except Exception:
            log.exception("the eBay emulator could not be built")
            for waiting in self._waiting:
                waiting.abort()
            self._waiting.clear()
            self._building = None  # the next connection tries again
            return
        self.sandbox, self._runner, self._handler = sandbox, runner, runner.server
        pending, self._waiting = self._waiting, []
        for connection in pending:
            connection.hand_over(self._handler)

    async def stop(self) -> None:
        if self._served is not None:  # the server's child ends when the connection does
            self._served.close()
            self._served = None
            return
        if self._server is not None:
            self._server.close()
        else:
            self._socket.close()
        if self._building is not None and not self._building.done():
            await self._building  # (it logs a failure and returns)
        for waiting in self._waiting:
            waiting.abort()
        self._waiting.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None


class _Waiting(asyncio.Protocol):
    """A connection that arrived while the emulator was being built: its bytes are
    kept until the emulator's own protocol takes the connection over."""

    def __init__(self, owner: LazyEmulator):
        self.owner = owner
        self.transport: Any = None  # asyncio's or uvloop's TCP transport
        self.data = bytearray()
        self.eof = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        if self.owner._handler is not None:  # built between accepting and this call
            self.hand_over(self.owner._handler)
        else:
            self.owner._waiting.append(self)

    def data_received(self, data: bytes) -> None:
        self.data += data

    def eof_received(self) -> bool | None:
        self.eof = True
        return True  # keep the connection open for writing: the answer is still to come

    def connection_lost(self, exc: Exception | None) -> None:
        if self in self.owner._waiting:
            self.owner._waiting.remove(self)
        self.transport = None

    def hand_over(self, factory: Any) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        protocol = factory()
        transport.set_protocol(protocol)
        protocol.connection_made(transport)
        if self.data:
            protocol.data_received(bytes(self.data))
        if self.eof:
            protocol.eof_received()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()
