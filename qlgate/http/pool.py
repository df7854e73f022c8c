"""Keep-alive connections per origin (and per proxy), opened on demand, reused LIFO.

An origin is (scheme, host, port) and the proxy a request goes through, if any: a
connection tunnelled through a proxy is a different thing from a direct one to the same
host. The pool bounds the connections open at once (``limit``, all origins together, as
aiohttp's connector did): a request that finds none idle and the pool full first closes
an idle connection of another origin, else waits for one to come back. Connections idle
longer than ``keepalive`` seconds are closed rather than reused, since servers drop
theirs after a while and a request on a dropped connection costs a round trip to learn it.

TLS: ``ssl_context`` verifies every origin's certificate and host name (the system's CAs
unless a context is given). Through a proxy, HTTPS is tunnelled with CONNECT and TLS runs
to the origin inside the tunnel, so the proxy sees neither the request nor the answer.
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque

from .proxy import ProxyServer
from .wire import Connection, WireError

_DEFAULT_PORTS = {"http": 80, "https": 443}


class ProxyRefused(Exception):
    """The proxy answered CONNECT with something other than 2xx."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(f"{status} {reason}")
        self.status = status
        self.reason = reason


class Pool:
    def __init__(self, *, limit: int = 256, keepalive: float = 30.0, ssl_context: ssl.SSLContext | None = None):
        self.limit = limit
        self.keepalive = keepalive
        self._ssl_context = ssl_context
        self._idle: dict[tuple, list[Connection]] = {}
        self._open = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._last_sweep = 0.0
        self._closed = False

    @property
    def ssl_context(self) -> ssl.SSLContext:
        if self._ssl_context is None:
            self._ssl_context = ssl.create_default_context()  # verification on, the system's CAs
        return self._ssl_context

    @property
    def open_count(self) -> int:
        return self._open

    def idle_count(self, key: tuple | None = None) -> int:
        if key is not None:
            return len(self._idle.get(key, ()))
        return sum(len(v) for v in self._idle.values())

    async def acquire(self, key: tuple, proxy: ProxyServer | None, timeout: float) -> tuple[Connection, bool]:
        """A connection to ``key`` = (scheme, host, port, proxy URL), and whether it is a
        reused one (a reused one may have been closed by the server a moment ago).
        ``timeout`` bounds the wait for room in the pool and the connect together."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        if now - self._last_sweep > self.keepalive:
            self._sweep(now)
        conn = self._take_idle(key, now)
        if conn is not None:
            return conn, True  # the hot path: no timer, no task
        async with asyncio.timeout(timeout):
            while self._open >= self.limit and not self._close_one_idle():
                waiter = loop.create_future()
                self._waiters.append(waiter)
                try:
                    await waiter
                except BaseException:
                    if waiter.done() and not waiter.cancelled():
                        self._wake()  # woken, then cancelled: the room goes to the next in line
                    else:
                        waiter.cancel()
                    raise
                conn = self._take_idle(key, loop.time())
                if conn is not None:
                    return conn, True
            self._open += 1
            try:
                return await self._connect(loop, key, proxy), False
            except BaseException:
                self._open -= 1
                self._wake()
                raise

    def _take_idle(self, key: tuple, now: float) -> Connection | None:
        idle = self._idle.get(key)
        while idle:
            conn = idle.pop()
            if not conn.closed and now - conn.idle_since < self.keepalive:
                return conn
            self._retire(conn)
        return None

    def release(self, key: tuple, conn: Connection, keep: bool) -> None:
        """Back to the pool after a whole answer (``keep``), else closed."""
        if self._closed:  # the pool was closed while this call was out
            conn.close()
            return
        if keep and not conn.closed:
            conn.idle_since = conn.loop.time()
            idle = self._idle.get(key)
            if idle is None:
                self._idle[key] = [conn]
            else:
                idle.append(conn)
            if self._waiters:
                self._wake()
        else:
            self._retire(conn)

    def close(self) -> None:
        self._closed = True
        for idle in self._idle.values():
            for conn in idle:
                conn.close()
        self._idle.clear()
        self._open = 0

    # ---------------------------------------------------------------- internals

    def _retire(self, conn: Connection) -> None:
        conn.close()
        self._open -= 1
        self._wake()

    def _wake(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def _close_one_idle(self) -> bool:
        oldest: tuple[float, tuple] | None = None
        for key, idle in self._idle.items():
            if idle and (oldest is None or idle[0].idle_since < oldest[0]):
                oldest = (idle[0].idle_since, key)
        if oldest is None:
            return False
        conn = self._idle[oldest[1]].pop(0)
        conn.close()
        self._open -= 1
        return True

    def _sweep(self, now: float) -> None:
        self._last_sweep = now
        for key in list(self._idle):
            keep = []
            for conn in self._idle[key]:
                if conn.closed or now - conn.idle_since >= self.keepalive:
                    conn.close()
                    self._open -= 1
                else:
                    keep.append(conn)
            if keep:
                self._idle[key] = keep
            else:
                del self._idle[key]

    async def _connect(self, loop: asyncio.AbstractEventLoop, key: tuple, proxy: ProxyServer | None) -> Connection:
        scheme, host, port = key[0], key[1], key[2]
        tls = scheme == "https"
        if proxy is None:
            _, conn = await loop.create_connection(
                lambda: Connection(loop),
                host,
                port,
                ssl=self.ssl_context if tls else None,
                server_hostname=host if tls else None,
            )
            return conn
        proxy_scheme, proxy_host, proxy_port = _split_proxy(proxy.url)
        proxy_tls = proxy_scheme == "https"
        try:
            _, conn = await loop.create_connection(
                lambda: Connection(loop),
                proxy_host,
                proxy_port,
                ssl=self.ssl_context if proxy_tls else None,
                server_hostname=proxy_host if proxy_tls else None,
            )
        except OSError as e:
            raise _ProxyUnreachable(e) from None
        if not tls:
            return conn  # plain HTTP goes to the proxy in absolute form, no tunnel
        authority = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        lines = [f"CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n"]
        if proxy.authorization is not None:
            lines.append(f"Proxy-Authorization: {proxy.authorization}\r\n")
        lines.append("\r\n")
        try:
            answer = await conn.exchange("".join(lines).encode("latin-1"), 3600.0, 1 << 16, head_only=True)
            if not 200 <= answer.status < 300:
                raise ProxyRefused(answer.status, answer.reason)
            transport = conn.transport
            assert transport is not None
            tunnelled = await loop.start_tls(transport, conn, self.ssl_context, server_hostname=host)
            if tunnelled is None:  # pragma: no cover - only when the transport closed meanwhile
                raise WireError("the proxy closed the tunnel", fresh=True)
        except BaseException:  # refused, failed, timed out or cancelled: the proxy's socket goes too
            conn.close()
            raise
        conn.transport = tunnelled
        return conn


class _ProxyUnreachable(OSError):
    """Connecting to the proxy itself failed (as opposed to the proxy reaching the origin)."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause))
        self.cause = cause


def _split_proxy(url: str) -> tuple[str, str, int]:
    scheme, _, rest = url.partition("://")
    hostport = rest.split("/", 1)[0]
    if hostport.startswith("["):
        host, _, port = hostport[1:].partition("]")
        port = port.lstrip(":")
    else:
        host, _, port = hostport.rpartition(":") if ":" in hostport else (hostport, "", "")
    return scheme, host, int(port) if port else _DEFAULT_PORTS.get(scheme, 80)
