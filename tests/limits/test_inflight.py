"""Calls in flight held to a limit by several processes' shares of one store
(``qlgate/limits/inflight.py``): here two ``InFlight`` over the same SQLite file
(two holders, as two processes are), with a store slowed down so that every
hand-over races the callers."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from qlgate.limits.inflight import LINGER_S, Holding, InFlight
from qlgate.limits.stores.host import HostLimits


class SlowStore:
    """A real store whose answers take ``delay`` seconds (a busy disk, a far ZooKeeper)."""

    blocks = True
    epoch = 0

    def __init__(self, store: HostLimits, delay: float = 0.03):
        self.store, self.delay = store, delay

    def limit(self, api: str) -> int | None:
        return self.store.limit(api)

    def hold(self, api: str, limit: int, total: int, wanting: int) -> Holding:
        time.sleep(self.delay)
        return self.store.hold(api, limit, total, wanting)

    def in_use(self) -> dict[str, int]:
        return self.store.in_use()


@pytest.fixture
def stores(tmp_path):
    made = [HostLimits(tmp_path / "jobs.sqlite") for _ in range(2)]
    yield made
    for store in made:
        store.close()


async def test_no_moment_has_more_calls_in_flight_than_the_limit(stores):
    """Bursts after idle gaps longer than LINGER_S: units go back to the store while
    new callers arrive — they must not spend units the store no longer counts."""
    shares = [InFlight(SlowStore(store)) for store in stores]
    in_flight = most = 0
    uncounted: list[tuple[int, int]] = []
    rng = random.Random(7)

    def counted(store: HostLimits) -> int:
        row = store._reader.execute("select count from call_units where holder = ?", (store.holder,)).fetchone()
        return row[0] if row else 0

    async def caller(share: InFlight) -> None:
        nonlocal in_flight, most
        for _ in range(25):
            await share.enter("partner.a", 3)
            in_flight += 1
            most = max(most, in_flight)
            await asyncio.sleep(rng.uniform(0.001, 0.05))
            mine = share.busy().get("partner.a", 0)
            if mine > (recorded := counted(share.store.store)):  # spent units the store no longer counts
                uncounted.append((mine, recorded))
            in_flight -= 1
            share.leave("partner.a")
            await asyncio.sleep(rng.choice((0.0, 0.005, LINGER_S * 1.3)))

    await asyncio.wait_for(asyncio.gather(*(caller(shares[i % 2]) for i in range(8))), 60)
    assert most == 3  # reached, never passed
    assert uncounted == []
    deadline = time.monotonic() + 5
    while stores[0].in_use():  # idle units go back to the store: none is left counted
        assert time.monotonic() < deadline, stores[0].in_use()
        await asyncio.sleep(0.05)


async def test_a_share_gives_way_to_another_that_waits_and_then_takes_the_whole_limit_again(stores):
    busy, patient = InFlight(stores[0]), InFlight(stores[1])
    for _ in range(4):
        await busy.enter("partner.a", 4)
    waiter = asyncio.create_task(patient.enter("partner.a", 4))
    await asyncio.sleep(0.3)
    assert not waiter.done()
    busy.leave("partner.a")  # its share is now 2 of 4: the unit goes to the other
    await asyncio.wait_for(waiter, 2)
    patient.leave("partner.a")
    # the other wants nothing any more: this one may take the whole limit again
    for _ in range(3):
        busy.leave("partner.a")
    await asyncio.sleep(LINGER_S * 3)
    await asyncio.wait_for(asyncio.gather(*(busy.enter("partner.a", 4) for _ in range(4))), 2)


async def test_a_caller_that_gives_up_leaves_no_wanting_behind(stores):
    """A process whose callers all timed out must not go on saying it wants units:
    the others would keep to half the limit for good."""
    holder, quitter = InFlight(stores[0]), InFlight(stores[1])
    for _ in range(2):
        await holder.enter("partner.a", 2)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(quitter.enter("partner.a", 2), 0.3)
    await asyncio.sleep(0.5)  # the quitter's share settles with the store
    holder.leave("partner.a")
    holder.leave("partner.a")
    await asyncio.sleep(LINGER_S * 3)  # they rest, and go back: the next ones are asked of the store
    await asyncio.wait_for(asyncio.gather(*(holder.enter("partner.a", 2) for _ in range(2))), 2)
