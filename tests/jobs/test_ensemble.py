"""What a ZooKeeper session lives through on a real 3-server ensemble: the crash
of its server (the leader), the loss of a majority, and a network partition
between the client and every server. These are the faults the job backend's
workers must survive; each test shows what the client sees and when.

Servers are real ``QuorumPeerMain`` processes (``tests.servers.zookeeper.LocalEnsemble``);
the partition is staged by loopback proxies (``tests.netproxy``).
"""

from __future__ import annotations

import queue
import threading
import time
import uuid

import pytest
from kazoo.client import KazooClient
from kazoo.protocol.states import KazooState

from qlgate.jobs.zk.session import zk_client
from tests.netproxy import ProxiedEnsemble

SESSION_S = 6.0

# kazoo's default reconnection back-off doubles without bound worth speaking of (an hour): after a
# 4-second outage its next try can be 3 s away. Tests that stage a long outage cap it, so that
# what they time is the ensemble, not the back-off.
EAGER_RECONNECT = {"max_tries": -1, "delay": 0.1, "backoff": 1.5, "max_delay": 0.5, "max_jitter": 0.1}


class States:
    """The connection states a client went through, in order, with the time of each
    (kazoo calls listeners on its own thread)."""

    def __init__(self, client: KazooClient):
        self._seen: queue.Queue[tuple[str, float]] = queue.Queue()
        client.add_listener(lambda state: self._seen.put((state, time.monotonic())))

    def next(self, timeout: float) -> tuple[str, float]:
        try:
            return self._seen.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no change of connection state within {timeout} s") from None

    def forget(self) -> None:
        """Drop what was seen so far: the next state is the next change."""
        while not self._seen.empty():
            self._seen.get_nowait()


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(0.02)


def lose_majority(ensemble, client: KazooClient, states: States) -> list[int]:
    """Stop the leader and one follower; return once the survivor has stopped serving and the
    client is suspended. (In between, the survivor may briefly lead, and the client may briefly
    reconnect to it: the states seen until then are forgotten.)"""
    leader = ensemble.leader()
    gone = [leader, (leader + 1) % 3]
    for i in gone:
        ensemble.stop(i)
    wait_until(lambda: ensemble.modes() == [None, None, None], 5, "the survivor alone serves nobody")
    wait_until(lambda: client.state == KazooState.SUSPENDED, 5, "the client is suspended")
    states.forget()
    return gone


@pytest.fixture
def clients():
    """Start clients with ``clients(hosts, **options)``; all are closed after the test."""
    started: list[KazooClient] = []

    def start(hosts: str, **options) -> tuple[KazooClient, States]:
        client = zk_client(hosts, **options)
        started.append(client)
        states = States(client)
        client.start(10)
        assert states.next(1)[0] == KazooState.CONNECTED
        return client, states

    yield start
    for client in started:
        client.stop()
        client.close()


def test_a_session_lives_through_the_crash_of_its_server_the_leader(ensemble, clients):
    leader = ensemble.leader()
    # the leader listed first and no shuffling: the client sits on the server that will crash
    hosts = ",".join(ensemble.host(i) for i in [leader, *(i for i in range(3) if i != leader)])
    client, states = clients(hosts, timeout=SESSION_S, randomize_hosts=False)
    client.create("/worker", b"w1", ephemeral=True)
    session = client.client_id[0]
    assert [len(ensemble.clients(i)) for i in range(3)] == [int(i == leader) for i in range(3)]

    crashed = time.monotonic()
    ensemble.kill(leader)
    assert states.next(SESSION_S)[0] == KazooState.SUSPENDED  # at once: the kernel closed the socket
    state, reconnected = states.next(SESSION_S)
    assert state == KazooState.CONNECTED
    assert reconnected - crashed < SESSION_S  # ~0.5 s: an election, then a follower
    assert ensemble.wait_for_quorum(10) != leader
    assert client.client_id[0] == session  # the same session ...
    assert client.get("/worker")[0] == b"w1"  # ... so its ephemeral node lives on
    assert client.exists("/worker").ephemeralOwner == session
    assert sum(len(ensemble.clients(i)) for i in range(3) if i != leader) == 1


def test_without_a_majority_no_write_is_acknowledged_and_a_short_outage_keeps_the_session(ensemble, clients):
    client, states = clients(ensemble.hosts, timeout=SESSION_S, connection_retry=EAGER_RECONNECT)
    client.create("/worker", b"w1", ephemeral=True)
    session = client.client_id[0]

    outage = time.monotonic()
    gone = lose_majority(ensemble, client, states)
    # a write now waits in kazoo's queue: it is neither done nor refused ...
    pending = client.create_async("/written-without-quorum", b"")
    with pytest.raises(client.handler.timeout_exception):
        pending.get(timeout=1)
    # ... and no one can open a session
    other = zk_client(ensemble.hosts, timeout=SESSION_S)
    try:
        with pytest.raises(other.handler.timeout_exception):
            other.start(1)
    finally:
        other.stop()
        other.close()

    for i in gone:
        ensemble.start_server(i)
    ensemble.wait_for_quorum(10)
    state, back = states.next(SESSION_S)
    assert state == KazooState.CONNECTED
    assert back - outage < SESSION_S
    assert client.client_id[0] == session
    assert client.exists("/worker").ephemeralOwner == session
    # the write that timed out had not failed: kazoo sent it once the session was back. A timed-out
    # write is an unknown outcome, to be settled by reading, never assumed lost
    assert pending.get(timeout=5) == "/written-without-quorum"


def test_a_majority_outage_longer_than_the_session_timeout_expires_no_session(ensemble, clients):
    """Only a leader expires sessions, and a new leader starts every session's clock afresh:
    while no quorum serves, time does not count against any session."""
    client, states = clients(ensemble.hosts, timeout=2.0, connection_retry=EAGER_RECONNECT)
    client.create("/worker", b"w1", ephemeral=True)
    session = client.client_id[0]

    gone = lose_majority(ensemble, client, states)
    time.sleep(4.0)  # twice the session timeout
    for i in gone:
        ensemble.start_server(i)
    ensemble.wait_for_quorum(10)
    assert states.next(5)[0] == KazooState.CONNECTED
    assert client.client_id[0] == session
    assert client.exists("/worker").ephemeralOwner == session


def test_a_client_cut_off_by_a_partition_is_suspended_expired_and_told_so_when_it_heals(shared_ensemble, clients):
    session_s = 2.0
    with ProxiedEnsemble(shared_ensemble) as network:
        cut, states = clients(network.hosts, timeout=session_s)
        direct, _ = clients(shared_ensemble.hosts)
        path = cut.create(f"/partition-{uuid.uuid4().hex[:12]}/worker", b"w1", ephemeral=True, makepath=True)
        session = cut.client_id[0]
        vanished = threading.Event()
        direct.sync(path)  # its server may lag behind the one that took the write
        assert direct.exists(path, watch=lambda event: vanished.set())

        silenced = time.monotonic()
        network.silence()
        # no RST, no FIN: the client only learns from a ping left unanswered (it pings every third
        # of its timeout, give or take kazoo's jitter)
        state, suspended = states.next(session_s + 1)
        assert state == KazooState.SUSPENDED
        assert 0.2 < suspended - silenced < session_s
        # the ensemble hears nothing from the session either, and expires it after its timeout
        assert vanished.wait(session_s + 3)
        assert time.monotonic() - silenced > session_s / 2
        assert direct.exists(path) is None
        assert cut.state == KazooState.SUSPENDED  # the cut-off client cannot know yet

        network.heal()
        state, _ = states.next(10)
        assert state == KazooState.LOST  # told at its first reconnection
        assert states.next(5)[0] == KazooState.CONNECTED  # kazoo opens a new session
        assert cut.client_id[0] != session
        assert cut.exists(path) is None
