"""Call-rate budgets: windows, leasing in batches, waiting for the next window,
giving unspent tokens back — in memory and in ZooKeeper."""

from __future__ import annotations

import time

import pytest

from qlgate.jobs.model import JobError
from qlgate.jobs.rates import CallGate, MemoryTokens, Rate
from qlgate.jobs.zk.rates import ZkTokens


def test_rates_parse_and_know_their_windows():
    assert Rate.parse("20/s") == Rate(20, "second") and Rate.parse("5000/day") == Rate(5000, "day")
    with pytest.raises(JobError):
        Rate.parse("fast")
    with pytest.raises(JobError):
        Rate(5, "hour")
    noon = 1_795_320_000.25          # a moment of 2026-11-22 (UTC)
    assert Rate(1, "second").window(noon) == "1795320000"
    assert Rate(1, "second").window_end(noon) == 1_795_320_001
    assert Rate(1, "day").window(noon) == "2026-11-22"
    assert Rate(1, "day").window_end(noon) % 86400 == 0
    assert Rate(100, "second").batch == 10 and Rate(3, "day").batch == 1


async def test_a_spent_daily_budget_waits_for_the_next_day():
    tokens = MemoryTokens()
    tokens.rates["api.x"] = Rate(3, "day")
    day_end = (time.time() // 86400 + 1) * 86400
    offset = day_end - 0.15 - time.time()                 # pretend the day ends in 150 ms
    gate = CallGate(tokens, clock=lambda: time.time() + offset)
    started = time.monotonic()
    for _ in range(3):
        await gate("api.x.call")
    assert time.monotonic() - started < 0.1
    await gate("api.x.call")                               # the fourth waits for the new day
    assert time.monotonic() - started >= 0.14
    await gate("other.table")                              # a type with no rate never waits


def test_tokens_in_zookeeper_are_leased_by_compare_and_set_and_given_back(zk):
    store = ZkTokens(zk)
    rate = Rate(10, "second")
    store.set_rate("api.y", rate)
    assert store.rate("api.y") == rate
    other = ZkTokens(zk)
    assert other.rate("api.y") == rate                     # seen by every process
    window = rate.window(time.time())
    assert store.lease("api.y", rate, window, 4) == 4
    assert other.lease("api.y", rate, window, 4) == 4
    assert store.lease("api.y", rate, window, 4) == 2      # what is left of the budget
    assert other.lease("api.y", rate, window, 4) == 0
    store.give_back("api.y", window, 2)
    assert other.lease("api.y", rate, window, 4) == 2
    later = str(int(window) + 5)
    assert store.lease("api.y", rate, later, 1) == 1       # a new window; older ones are removed
    deadline = time.monotonic() + 5
    while window in zk.get_children("/qlgate/tokens/api.y"):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    store.set_rate("api.y", None)
    deadline = time.monotonic() + 5
    while other.rate("api.y") is not None:                 # the removal reaches the other process by watch
        assert time.monotonic() < deadline
        time.sleep(0.02)
