"""The gateway served on a loopback port for a test: ``start_server``,
``make_url`` and ``close``, the calls tests make of a server under test."""

from __future__ import annotations

import contextlib
from typing import Any

from qlgate.server.gateway import Gateway
from qlgate.server.server import Server, serving


class GatewayTestServer:
    def __init__(self, gateway: Gateway, host: str = "127.0.0.1", port: int = 0, *, grace: float = 5.0) -> None:
        self.gateway = gateway
        self.host = host
        self._port = port
        self._grace = grace
        self._stack = contextlib.AsyncExitStack()
        self.server: Server | None = None

    async def start_server(self) -> GatewayTestServer:
        self.server = await self._stack.enter_async_context(
            serving(self.gateway, self.host, self._port, grace=self._grace)
        )
        return self

    @property
    def port(self) -> int:
        assert self.server is not None, "start_server first"
        return self.server.port

    def make_url(self, path: str = "") -> str:
        assert self.server is not None, "start_server first"
        return self.server.url(path)

    async def close(self) -> None:
        await self._stack.aclose()

    async def __aenter__(self) -> GatewayTestServer:
        return await self.start_server()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
