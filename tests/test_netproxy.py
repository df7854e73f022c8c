"""The partition proxy (tests/netproxy.py) on a plain echo server: it forwards, it
goes silent without closing anything, and healing resets what the silence broke."""

from __future__ import annotations

import socket
import socketserver
import threading
import time

import pytest

from tests.netproxy import Proxy


class _Echo(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        while data := self.request.recv(4096):
            self.request.sendall(data)


@pytest.fixture
def echo():
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Echo)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address
    server.shutdown()
    server.server_close()


@pytest.fixture
def proxy(echo):
    with Proxy(*echo) as running:
        yield running


def connect(proxy: Proxy) -> socket.socket:
    return socket.create_connection(("127.0.0.1", proxy.port), timeout=2)


def silent(sock: socket.socket, wait: float = 0.3) -> bool:
    """Nothing arrives, not even an end of stream, for ``wait`` seconds."""
    sock.settimeout(wait)
    try:
        sock.recv(1)
    except TimeoutError:
        return True
    return False


def test_bytes_pass_both_ways(proxy):
    with connect(proxy) as sock:
        sock.sendall(b"ping")
        assert sock.recv(4) == b"ping"


def test_a_silenced_proxy_drops_every_byte_but_closes_nothing(proxy):
    with connect(proxy) as before:
        before.sendall(b"ping")
        assert before.recv(4) == b"ping"
        proxy.silence()
        before.sendall(b"lost")
        assert silent(before)
        with connect(proxy) as during:  # still accepted, never answered
            during.sendall(b"lost too")
            assert silent(during)


def wait_for_connections(proxy: Proxy, count: int) -> None:
    """A connection is accepted by the kernel before the proxy takes it up: wait for the proxy."""
    deadline = time.monotonic() + 2
    while proxy.connections < count:
        assert time.monotonic() < deadline, f"the proxy holds {proxy.connections} connections, not {count}"
        time.sleep(0.01)


def test_healing_resets_the_broken_connections_and_forwards_new_ones(proxy):
    with connect(proxy) as before:
        before.sendall(b"ping")
        assert before.recv(4) == b"ping"
        proxy.silence()
        with connect(proxy) as during:
            wait_for_connections(proxy, 2)
            proxy.heal()
            for stale in (before, during):
                stale.settimeout(2)
                with pytest.raises(ConnectionResetError):
                    stale.recv(1)
    with connect(proxy) as after:
        after.sendall(b"pong")
        assert after.recv(4) == b"pong"


def test_a_server_that_is_down_refuses_through_the_proxy():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    with Proxy("127.0.0.1", port) as proxy, pytest.raises(ConnectionResetError):
        # the reset may come while the connection is still being made, or at the first read
        with connect(proxy) as sock:
            sock.settimeout(2)
            sock.recv(1)
