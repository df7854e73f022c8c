"""A loopback TCP proxy that can play a network partition, for chaos tests.

A crashed server is easy to stage (SIGKILL): the kernel closes its sockets and
every client knows at once. A partition is different and more treacherous:
nothing arrives any more, not even a FIN or a RST, and each side only learns
from its own timeouts. ``Proxy.silence()`` stages that between a client and a
server: the proxy keeps every socket open and forwards nothing either way.

What happens to bytes and connections:

- while silenced, bytes arriving from either side are read and dropped, as a
  partition loses packets (the senders' writes succeed, as they would until a
  real TCP window filled). An end of stream from either side is swallowed too;
- new connections are accepted while silenced, but not connected onward: the
  client's handshake (its connect request) goes unanswered;
- ``heal()`` resets every connection that existed while silenced (RST), the way
  a server answers retransmissions of a connection it has long forgotten; the
  dropped bytes left those streams broken for the protocol anyway. Clients
  reconnect, and new connections are forwarded normally.

``ProxiedEnsemble`` puts one proxy in front of each server of a
``LocalEnsemble``: a client given its ``hosts`` can be cut off from the whole
ensemble while others, connected directly, still reach it.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
from collections.abc import Coroutine
from typing import Any

_CHUNK = 65536


class ProxyError(RuntimeError):
    """The proxy could not start or did not answer its controller in time."""


class _Link:
    """One client connection and, once connected onward, its connection to the target."""

    def __init__(self, client: asyncio.StreamWriter):
        self.client = client
        self.target: asyncio.StreamWriter | None = None
        self.tasks: list[asyncio.Task] = []

    def reset(self) -> None:
        """Close both sides at once with a RST, and stop pumping."""
        for task in self.tasks:
            if task is not asyncio.current_task():
                task.cancel()
        for writer in (self.client, self.target):
            if writer is None or writer.transport.is_closing():
                continue
            sock = writer.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()

    def close(self) -> None:
        """Close both sides in order (FIN), as a peer's own close is passed on."""
        for task in self.tasks:
            if task is not asyncio.current_task():
                task.cancel()
        for writer in (self.client, self.target):
            if writer is not None:
                writer.close()


class Proxy:
    """Forwards connections to ``target_host:target_port`` from a free port on 127.0.0.1,
    on an event loop of its own in a background thread (tests stay synchronous)."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.port = 0
        self.silenced = False
        self._links: set[_Link] = set()
        self._server: asyncio.Server | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"proxy→{target_port}", daemon=True)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> Proxy:
        self._thread.start()
        self._server = self._call(asyncio.start_server(self._accept, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    @property
    def connections(self) -> int:
        """Client connections the proxy holds open (forwarded or held in silence)."""
        return self._call(self._count())

    def silence(self) -> None:
        """From now on nothing passes, in either direction; every socket stays open."""
        self._call(self._set_silenced())

    def heal(self) -> None:
        """Reset the connections the silence broke; new ones are forwarded again."""
        self._call(self._heal())

    def close(self) -> None:
        if self._thread.is_alive():
            self._call(self._close())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
        if not self._loop.is_running():
            self._loop.close()

    def __enter__(self) -> Proxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -------------------------------------------------------------- on the proxy's loop

    def _call(self, coro: Coroutine[Any, Any, Any], timeout: float = 5) -> Any:
        """Run ``coro`` on the proxy's loop and wait: once this returns, the change is in force
        (a pump that reads after it sees the new state; nothing is forwarded in between)."""
        try:
            return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)
        except TimeoutError as e:
            raise ProxyError(f"the proxy to {self.target} did not answer in {timeout} s") from e

    async def _count(self) -> int:
        return len(self._links)

    async def _set_silenced(self) -> None:
        self.silenced = True

    async def _heal(self) -> None:
        if self.silenced:
            self.silenced = False
            for link in list(self._links):
                link.reset()
            self._links.clear()

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for link in list(self._links):
            link.reset()
        self._links.clear()
        if self._server is not None:
            await self._server.wait_closed()
        # let the cancelled pumps finish, so that the loop closes with no task pending
        pumps = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        await asyncio.gather(*pumps, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        link = _Link(writer)
        self._links.add(link)
        if self.silenced:  # a black hole: accepted, never connected onward
            link.tasks.append(asyncio.create_task(self._pump(reader, None, link)))
            return
        try:
            target_reader, link.target = await asyncio.open_connection(*self.target)
        except OSError:  # the server is down: refused, as it would be directly
            link.reset()
            self._links.discard(link)
            return
        if link not in self._links:  # healed or closed while connecting
            link.reset()
            return
        link.tasks += [
            asyncio.create_task(self._pump(reader, link.target, link)),
            asyncio.create_task(self._pump(target_reader, writer, link)),
        ]

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter | None, link: _Link) -> None:
        try:
            while data := await source.read(_CHUNK):
                if not self.silenced and sink is not None:
                    sink.write(data)
                    await sink.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass  # a reset: handled like an end of stream
        if not self.silenced and link in self._links:
            self._links.discard(link)  # one side ended: pass the close on
            link.close()


class ProxiedEnsemble:
    """One started ``Proxy`` per server of ``ensemble`` (anything with ``size`` and
    ``port(i)``, such as ``tests.servers.zookeeper.LocalEnsemble``). ``hosts`` is the connect
    string through the proxies; servers may be killed and restarted behind them."""

    def __init__(self, ensemble: Any):
        self.proxies: list[Proxy] = []
        try:
            for i in range(ensemble.size):
                self.proxies.append(Proxy("127.0.0.1", ensemble.port(i)).start())
        except BaseException:
            self.close()
            raise

    @property
    def hosts(self) -> str:
        return ",".join(proxy.address for proxy in self.proxies)

    def silence(self) -> None:
        """Cut the clients of these proxies off from every server at once."""
        for proxy in self.proxies:
            proxy.silence()

    def heal(self) -> None:
        for proxy in self.proxies:
            proxy.heal()

    def close(self) -> None:
        for proxy in self.proxies:
            proxy.close()

    def __enter__(self) -> ProxiedEnsemble:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
