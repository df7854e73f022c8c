"""The polling handler answers kazoo's select() as kazoo's own handler would."""

from __future__ import annotations

import socket
import time

import pytest

from qlgate.jobs.zk.session import PollingHandler, zk_client


@pytest.fixture
def pair():
    left, right = socket.socketpair()
    yield left, right
    left.close()
    right.close()


def test_a_socket_with_data_is_readable_and_one_with_room_writable(pair):
    left, right = pair
    select = PollingHandler().select
    assert select([left], [], [], 0) == ([], [], [])
    right.sendall(b"x")
    assert select([left], [right], [], 1) == ([left], [right], [])
    assert select([left.fileno()], [], [], 1) == ([left.fileno()], [], [])  # fds work as well as sockets


def test_nothing_ready_waits_for_the_timeout(pair):
    left, _ = pair
    started = time.monotonic()
    assert PollingHandler().select([left], [], [], 0.05) == ([], [], [])
    assert time.monotonic() - started >= 0.04


def test_a_closed_peer_reads_as_readable_so_the_reader_sees_the_end(pair):
    left, right = pair
    right.close()
    assert PollingHandler().select([left], [], [], 1)[0] == [left]
    assert left.recv(1) == b""


def test_a_closed_socket_is_refused_as_kazoo_refuses_it(pair):
    left, _ = pair
    left.close()
    with pytest.raises(TypeError):
        PollingHandler().select([left], [], [], 0)


def test_a_session_with_the_handler_reads_writes_and_pipelines(zk_hosts):
    client = zk_client(zk_hosts, timeout=5)
    client.start(10)
    try:
        for i in range(50):
            client.create(f"/n{i}", str(i).encode(), makepath=True)
        pending = [client.get_async(f"/n{i}") for i in range(50)]
        assert [int(p.get()[0]) for p in pending] == list(range(50))
    finally:
        client.stop()
        client.close()
