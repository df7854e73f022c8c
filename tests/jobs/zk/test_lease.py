"""A worker's lease on its ZooKeeper session (qlgate/jobs/zk/lease.py): renewed
by answered probes, ended a margin before the session could have expired, and
checked by every call of a run — waiting while the connection is suspended,
refusing once the lease is over, re-proving the session after a pause."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from qlgate.jobs.zk.lease import FencedGate, LeaseExpired, RunFence, SessionLease, run_fence
from qlgate.jobs.zk.session import zk_client
from tests.servers.zookeeper import LocalZooKeeper


class Clock:
    """The monotonic clock, with a jump the test controls (a process paused for a while)."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped


def wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.fixture
def server():
    """A ZooKeeper of the test's own: tests here stop it."""
    zookeeper = LocalZooKeeper().start()
    yield zookeeper
    zookeeper.close()


@pytest.fixture
def session(server):
    made = []

    def make(timeout: float = 2.0):
        client = zk_client(server.hosts, timeout=timeout)
        client.start(10)
        made.append(client)
        return client

    yield make
    for client in made:
        client.stop()
        client.close()


def test_the_lease_ends_a_margin_before_the_session_could_have_expired(session):
    client = session(2.0)
    lease = SessionLease(client, clock=Clock()).start()
    try:
        wait_until(lease.valid)
        assert lease.timeout == 2.0 and lease.margin == pytest.approx(0.4)
        # renewed every T/10 from the probe's send time: at most T - margin ahead, and kept there
        for _ in range(5):
            assert 0 < lease.remaining() <= 2.0 - 0.4
            time.sleep(0.2)
        assert lease.remaining() > 2.0 - 0.4 - 2 * lease.probe_interval - 0.1
        assert lease.session == client.client_id[0]
    finally:
        lease.stop()


def test_the_lease_uses_the_session_timeout_the_server_granted_when_shorter(session):
    client = session(100.0)  # the server grants at most 60 s (maxSessionTimeout)
    lease = SessionLease(client).start()
    try:
        wait_until(lease.valid)
        assert client.negotiated_timeout == 60.0 and lease.timeout == 60.0
    finally:
        lease.stop()


def test_a_call_waits_while_suspended_then_is_refused_once_the_lease_is_over(server, session):
    client = session(2.0)
    lease = SessionLease(client).start()
    wait_until(lease.valid)
    gate = FencedGate(lease)
    run_fence.set(RunFence(lease.session))
    ended: list[str] = []
    lease.on_end(ended.append)
    try:
        asyncio.run(gate("partner.a.call"))  # connected, lease held: at once
        server.stop()
        wait_until(lambda: lease.suspended)
        assert lease.valid()  # the session may still come back

        async def call() -> float:
            started = time.monotonic()
            with pytest.raises(LeaseExpired):
                await gate("partner.a.call")
            return time.monotonic() - started

        waited = asyncio.run(call())
        assert 0 < waited <= 2.0  # waited for the lease to end, no longer
        assert not lease.valid()
        wait_until(lambda: ended)  # the worker is told, to cancel its runs
    finally:
        lease.stop()


def test_a_session_that_comes_back_in_time_lets_waiting_calls_go_on(server, session):
    """The server is back well before the session ends: 4 s, or more where starting
    ZooKeeper took long (a fixed 4 s failed under load, when the restart alone took longer)."""
    timeout = min(50.0, max(4.0, 3 * server.started_in + 2))
    client = session(timeout)
    lease = SessionLease(client).start()
    wait_until(lease.valid)
    run_fence.set(RunFence(lease.session))
    try:
        server.stop()
        wait_until(lambda: lease.suspended, timeout + 10)
        threading.Timer(0.3, server.start).start()

        async def call() -> None:
            await asyncio.wait_for(FencedGate(lease)("partner.a.call"), timeout + 10)

        asyncio.run(call())
        assert lease.valid() and not lease.suspended
    finally:
        lease.stop()


def test_a_paused_process_proves_its_session_again_before_a_further_call(session):
    client = session(2.0)
    clock = Clock()
    lease = SessionLease(client, clock=clock).start()
    wait_until(lease.valid)
    run_fence.set(RunFence(lease.session))
    try:
        clock.skipped += 5.0  # as if SIGSTOPped for 5 s: the lease is over
        assert not lease.valid()
        asyncio.run(FencedGate(lease)("partner.a.call"))  # the session is alive: one fresh probe proves it
        assert lease.valid()
    finally:
        lease.stop()


def test_a_run_handed_over_on_an_ended_session_is_never_covered_by_a_new_one(session):
    client = session(2.0)
    lease = SessionLease(client).start()
    wait_until(lease.valid)
    try:
        run_fence.set(RunFence(lease.session + 1))  # a session before this one
        with pytest.raises(LeaseExpired):
            asyncio.run(FencedGate(lease)("partner.a.call"))
    finally:
        lease.stop()


def test_a_call_that_waited_for_the_lease_after_its_rate_token_takes_a_fresh_token(session):
    """The rate gate hands out a time slot; if the lease then has to be proved again (the
    process paused meanwhile), the slot may have closed: the call takes another."""
    client = session(2.0)
    clock = Clock()
    lease = SessionLease(client, clock=clock).start()
    wait_until(lease.valid)
    run_fence.set(RunFence(lease.session))
    tokens = []

    async def rate_gate(table: str) -> None:
        tokens.append(table)
        if len(tokens) == 1:
            clock.skipped += 5.0  # paused while holding its token

    try:
        asyncio.run(FencedGate(lease, rate_gate)("partner.a.call"))
        assert tokens == ["partner.a.call", "partner.a.call"] and lease.valid()
    finally:
        lease.stop()


def test_a_refused_call_marks_its_run_and_a_call_of_no_run_is_refused(session):
    client = session(2.0)
    lease = SessionLease(client).start()
    wait_until(lease.valid)
    try:
        fence = RunFence(lease.session + 1)  # a session before this one
        run_fence.set(fence)
        with pytest.raises(LeaseExpired):
            asyncio.run(FencedGate(lease)("partner.a.call"))
        assert fence.refused  # the worker will not trust the run's outcome
        run_fence.set(None)
        with pytest.raises(LeaseExpired):
            asyncio.run(FencedGate(lease)("partner.a.call"))
        run_fence.set(RunFence(lease.session))
        lease.stop()  # revoked: stopping workers call no more
        with pytest.raises(LeaseExpired):
            asyncio.run(FencedGate(lease)("partner.a.call"))
    finally:
        lease.stop()
