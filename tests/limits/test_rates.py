"""Call-rate limits: a per-second rate holds in every sliding one-second window,
across processes (each with its own ZooKeeper session) and in memory; a daily
quota resets at midnight of the partner's calendar, daylight saving time
included; tokens are leased in batches by compare-and-set and given back."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from qlgate.jobs.zk.session import zk_client
from qlgate.limits.clock import MS, ServerClock
from qlgate.limits.errors import JobError
from qlgate.limits.rate import Rate
from qlgate.limits.rates import CallGate
from qlgate.limits.slots import GRACE_NS, busiest_window, promised_share, spacing_ns
from qlgate.limits.stores.memory import MemoryTokens
from qlgate.limits.stores.zk_rates import ZkTokens

LA = ZoneInfo("America/Los_Angeles")
N = 20  # calls per second in the spending tests
SPEND_FOR = 3.0  # seconds each spending test keeps its callers busy


def local(*fields: int, seconds: float = 0.0) -> float:
    """An instant given as Los Angeles wall-clock time."""
    return datetime(*fields, tzinfo=LA).timestamp() + seconds


# ------------------------------------------------------------------ rates as written


def test_rates_parse_with_the_partners_time_zone():
    assert Rate.parse("20/s") == Rate(20, "second") and Rate.parse("5000/day") == Rate(5000, "day", "UTC")
    ebay = Rate.parse("5000/day@America/Los_Angeles")
    assert ebay == Rate(5000, "day", "America/Los_Angeles") and str(ebay) == "5000/day@America/Los_Angeles"
    assert ebay.to_dict() == {"calls": 5000, "per": "day", "timeZone": "America/Los_Angeles"}
    assert Rate.from_json(ebay.to_dict()) == ebay == Rate.from_json("5000/d@America/Los_Angeles")
    assert Rate.from_json({"calls": 5000, "per": "day"}).to_dict()["timeZone"] == "UTC"
    assert Rate(20, "second").to_dict() == {"calls": 20, "per": "second"}  # a second has no zone
    for text in ("fast", "5000/day@", "5/hour"):
        with pytest.raises(JobError):
            Rate.parse(text)
    with pytest.raises(JobError, match="unknown time zone 'America/Springfield'"):
        Rate.parse("5000/day@America/Springfield")
    for zone in ("../../etc/passwd", "/etc/localtime", "localtime", "", 7):
        with pytest.raises(JobError, match="time zone"):
            Rate(5000, "day", zone)
    with pytest.raises(JobError, match="only a daily quota"):
        Rate.from_json({"calls": 20, "per": "second", "timeZone": "America/Los_Angeles"})


def test_a_day_is_the_local_date_however_long_it_is():
    ebay, utc = Rate(5000, "day", "America/Los_Angeles"), Rate(5000, "day")
    before, after = local(2026, 11, 21, 23, 59, 59, seconds=0.9), local(2026, 11, 22)
    assert (ebay.window(before), ebay.window(after)) == ("2026-11-21", "2026-11-22")
    assert ebay.window_end(before) == after
    assert utc.window(before) == utc.window(after) == "2026-11-22"  # 08:00 UTC: nothing to reset
    spring, autumn = local(2026, 3, 8), local(2026, 11, 1)  # DST begins, ends
    assert ebay.window_end(spring) - spring == 23 * 3600
    assert ebay.window_end(autumn) - autumn == 25 * 3600
    assert ebay.window(spring + 23 * 3600 - 0.001) == "2026-03-08"
    assert ebay.window(autumn + 24 * 3600) == "2026-11-01"  # 23:00: 1 o'clock came twice


# ------------------------------------------------------------------ every sliding second


def test_the_sliding_check_catches_what_counting_per_epoch_second_allowed():
    """The old scheme leased each epoch second's budget: a batch spent at its end and
    the next second's at its start kept every epoch second at N, and made 2N in one
    second."""
    late = [1000.95 + i * 0.002 for i in range(N)]  # the end of second 1000 …
    early = [1001.0 + i * 0.002 for i in range(N)]  # … and the start of 1001
    per_epoch_second = {s: sum(int(t) == s for t in late + early) for s in (1000, 1001)}
    assert per_epoch_second == {1000: N, 1001: N}
    assert busiest_window(late + early) == 2 * N
    slot = spacing_ns(N) / 1e9
    spaced = [1000 + GRACE_NS / 1e9 - 1e-6] + [1000 + i * slot for i in range(1, 3 * N)]
    assert busiest_window(spaced) == N  # the first slot spent at the end of its grace: still N


async def spend(gate: CallGate, table: str, callers: int, until: float, times: list[float]) -> None:
    """``callers`` at once, each calling again as soon as its call is let through."""

    async def caller() -> None:
        while True:
            await gate(table)
            times.append(time.monotonic())

    tasks = [asyncio.ensure_future(caller()) for _ in range(callers)]
    await asyncio.sleep(until - time.monotonic())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.to_thread(gate.give_back)


def assert_held(times: list[float], started: float, until: float) -> None:
    assert busiest_window(times) <= N
    spent = len(times)
    # N/(1 + g) = 19.05/s when every slot is spent (57 in 3 s, seen 54-58); a slot is lost
    # when its caller wakes too late, as on a host with more work than cores (seen 47-51
    # with the 2 cores oversubscribed 2.5 times), so 80% of it, 15.2/s, is asked
    assert spent / (until - started) >= 0.8 * promised_share() * N, spent


async def test_many_callers_in_memory_hold_every_sliding_second():
    tokens = MemoryTokens()
    tokens.rates["partner.r"] = Rate(N, "second")
    gate, times = CallGate(tokens), []
    started = time.monotonic()
    await spend(gate, "partner.r.call", 30, started + SPEND_FOR, times)
    assert_held(times, started, started + SPEND_FOR)


def test_workers_on_separate_sessions_hold_every_sliding_second(zk, zk_hosts):
    ZkTokens(zk).set_rate("partner.r", Rate(N, "second"))
    clients = [zk_client(zk_hosts) for _ in range(3)]
    times: list[float] = []
    try:
        gates = []
        for client in clients:
            client.start(10)
            gates.append(CallGate(ZkTokens(client)))
        started = time.monotonic()

        def worker(gate: CallGate) -> None:  # an event loop of its own, as a worker process has
            asyncio.run(spend(gate, "partner.r.call", 8, started + SPEND_FOR, times))

        threads = [threading.Thread(target=worker, args=(gate,)) for gate in gates]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(20)
        assert_held(times, started, started + SPEND_FOR)
        leases = zk.get("/qlgate/tokens/partner.r/slots")[1].version  # one write each
        assert leases < len(times) / 2  # most calls never waited on ZooKeeper
    finally:
        for client in clients:
            client.stop()
            client.close()


async def test_an_idle_process_holds_no_slots_others_could_use():
    tokens = MemoryTokens()
    tokens.rates["partner.r"] = Rate(N, "second")
    idle, busy = CallGate(tokens), CallGate(tokens)
    await idle("partner.r.call")  # one caller: one slot, not a tenth of N
    started = time.monotonic()
    await busy("partner.r.call")  # so the next slot is the busy one's
    assert time.monotonic() - started < 1.5 * spacing_ns(N) / 1e9


def test_unspent_slots_at_the_end_go_back(zk):
    store, other = ZkTokens(zk), ZkTokens(zk)
    rate = Rate(1, "second")  # slots 1.05 s apart: the test outpaces them
    first = store.lease_slots("api.y", rate, 5)
    assert first.count == 5 and first.spacing == spacing_ns(1)
    assert 0 < first.spendable < GRACE_NS  # narrowed by what it knows of ZooKeeper's clock
    assert abs(first.opens(0) - time.monotonic_ns()) < GRACE_NS
    store.return_slots("api.y", first, 2)  # slots 2-4 were not needed
    second = other.lease_slots("api.y", rate, 1)
    assert second.start == first.at(2)
    store.return_slots("api.y", first, 0)  # no longer the end: nothing moves
    assert other.lease_slots("api.y", rate, 1).start == second.end


def test_a_process_bounds_zookeepers_clock_from_its_own_writes():
    clock = ServerClock()
    assert clock.bounds() is None
    clock.observe(5_000, sent=1 * MS, received=3 * MS)  # stamped 5 s; sent at 1 ms, answered at 3 ms
    low, high = clock.bounds(3 * MS)
    assert (low, high) == (5_000 * MS - 3 * MS - 1, 5_001 * MS - 1 * MS + 1)  # a round trip and a millisecond
    clock.observe(5_010, sent=12 * MS, received=13 * MS)  # a quicker one narrows what is known
    assert clock.width(13 * MS) < high - low
    assert clock.width(10_013 * MS) >= clock.width(13 * MS) + 19 * MS  # ten seconds later: ±10 ms of drift
    clock.observe(9_000, sent=20 * MS, received=21 * MS)  # ZooKeeper's clock jumped: believe the new reading
    assert clock.bounds(21 * MS)[0] > 8_900 * MS


# ------------------------------------------------------------------ daily quotas


async def test_a_spent_daily_budget_waits_for_midnight_in_los_angeles():
    tokens = MemoryTokens()
    tokens.rates["api.x"] = Rate(3, "day", "America/Los_Angeles")
    midnight = tokens.rates["api.x"].window_end(time.time())
    offset = midnight - 0.15 - time.time()  # pretend the day ends in 150 ms
    gate = CallGate(tokens, clock=lambda: time.time() + offset)
    started = time.monotonic()
    for _ in range(3):
        await gate("api.x.call")
    assert time.monotonic() - started < 0.1
    await gate("api.x.call")  # the fourth waits for the new day
    assert time.monotonic() - started >= 0.14
    await gate("other.table")  # a type with no rate never waits


async def test_a_daily_quota_across_the_start_of_daylight_saving_time():
    now = [0.0]
    tokens = MemoryTokens()
    tokens.rates["api.x"] = Rate(2, "day", "America/Los_Angeles")
    gate = CallGate(tokens, clock=lambda: now[0])

    async def spent_until(moment: float) -> None:
        """Just before ``moment``, spend what is left of the day's budget: a further
        call waits until the clock says ``moment``."""
        now[0] = moment - 0.01
        while True:
            waiting = asyncio.ensure_future(gate("api.x.call"))
            await asyncio.sleep(0.03)
            if not waiting.done():
                break
        now[0] = moment
        await asyncio.wait_for(waiting, 2)

    midnight = local(2026, 3, 8)
    await spent_until(midnight)  # Saturday's budget, then Sunday's
    await gate("api.x.call")
    await spent_until(midnight + 23 * 3600)  # Sunday has 23 hours
    assert tokens.rates["api.x"].window(now[0]) == "2026-03-09"


def test_daily_budgets_in_zookeeper_are_leased_by_compare_and_set_and_given_back(zk):
    store = ZkTokens(zk)
    rate = Rate(10, "day", "America/Los_Angeles")
    store.set_rate("api.y", rate)
    assert store.rate("api.y") == rate
    other = ZkTokens(zk)
    assert other.rate("api.y") == rate  # seen by every process, time zone and all
    day = rate.window(local(2026, 11, 21, 23))
    assert store.lease("api.y", rate, day, 4) == 4
    assert other.lease("api.y", rate, day, 4) == 4
    assert store.lease("api.y", rate, day, 4) == 2  # what is left of the budget
    assert other.lease("api.y", rate, day, 4) == 0
    store.give_back("api.y", day, 2)
    assert other.lease("api.y", rate, day, 4) == 2
    assert store.lease("api.y", rate, "2026-11-22", 1) == 1  # a new day: the one before is kept …
    assert other.lease("api.y", rate, day, 4) == 0  # … for hosts whose clocks lag, spent as it was
    assert store.lease("api.y", rate, "2026-11-20", 4) == 0  # a day before that is not made again
    assert store.lease("api.y", rate, "2026-11-23", 1) == 1  # and a day two back is removed
    deadline = time.monotonic() + 5
    while sorted(zk.get_children("/qlgate/tokens/api.y")) != ["2026-11-22", "2026-11-23"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    store.set_rate("api.y", None)
    deadline = time.monotonic() + 5
    while other.rate("api.y") is not None:  # the removal reaches the other process by watch
        assert time.monotonic() < deadline
        time.sleep(0.02)


# ------------------------------------------------------------------ hosts whose clocks disagree


@pytest.fixture(params=["memory", "zookeeper"])
def two_hosts(request):
    """Two processes' token stores sharing one budget: ``set_rate(type, rate)`` for both."""
    if request.param == "memory":
        tokens = MemoryTokens()
        yield (tokens, tokens), tokens.rates.__setitem__
        return
    zk = request.getfixturevalue("zk")
    first, second = ZkTokens(zk), ZkTokens(zk)
    yield (first, second), lambda job_type, rate: (first.set_rate(job_type, rate), second._reload())


async def test_a_host_whose_clock_lags_never_refills_a_day_the_cluster_has_left(two_hosts):
    """Host A's clock is 3 s fast, host B's right by the partner's. At A's midnight A
    opens the new day; B, with 1.5 s of the old day left, spends what is left of it
    from the same shared count (kept for it), never a fresh budget, then waits for its
    own midnight. A day no one used before A left it is not opened by B at all."""
    (tokens_a, tokens_b), set_rate = two_hosts
    rate = Rate(10, "day", "America/Los_Angeles")  # leased a token at a time: exact counts
    set_rate("api.v", rate)
    set_rate("api.w", rate)
    midnight = local(2026, 11, 22)
    offset = midnight - 1.5 - time.time()
    clock_b = lambda: time.time() + offset  # noqa: E731
    host_a = CallGate(tokens_a, clock=lambda: clock_b() + 3)
    host_b = CallGate(tokens_b, clock=clock_b)

    for _ in range(4):
        await host_b("api.v.call")  # Saturday: 6 left
    for _ in range(3):
        await host_a("api.v.call")  # A's clock says Sunday already
    await host_a("api.w.call")
    for _ in range(6):
        await host_b("api.v.call")  # Saturday's last 6, in B's last second of it
    assert clock_b() < midnight

    await host_b("api.w.call")  # no Saturday for api.w: B waits for Sunday
    assert clock_b() >= midnight
    await host_b("api.v.call")  # api.v too, from what A left of Sunday
    if isinstance(tokens_a, ZkTokens):
        days = "/qlgate/tokens/api.v"
        left = {day: int(tokens_a.client.get(f"{days}/{day}")[0]) for day in tokens_a.client.get_children(days)}
        assert left == {"2026-11-21": 0, "2026-11-22": 6}
        assert tokens_a.client.get_children("/qlgate/tokens/api.w") == ["2026-11-22"]


def test_a_rate_moved_to_another_time_zone_starts_its_calendar_afresh(zk):
    """At 02:00 UTC on the 22nd it is still the 21st in Los Angeles: a type whose
    quota moves from UTC days to the partner's does not wait hours for the new
    calendar to catch up with the old one's date."""
    tokens = ZkTokens(zk)
    tokens.set_rate("api.z", Rate(10, "day"))
    gate = CallGate(tokens, clock=lambda: local(2026, 11, 21, 18))  # 02:00 UTC on the 22nd
    asyncio.run(gate("api.z.call"))
    tokens.set_rate("api.z", Rate(10, "day", "America/Los_Angeles"))
    started = time.monotonic()
    asyncio.run(gate("api.z.call"))
    assert time.monotonic() - started < 0.5
    assert zk.get_children("/qlgate/tokens/api.z") == ["2026-11-21"]
    assert int(zk.get("/qlgate/tokens/api.z/2026-11-21")[0]) == 9


# ------------------------------------------------------------------ ZooKeeper slow to answer


async def test_while_zookeeper_answers_slowly_calls_wait_for_usable_slots_instead_of_failing(zk, zk_hosts, caplog):
    """A latency spike: every round trip over 50 ms, so a process that has not yet
    measured ZooKeeper's clock cannot know it to within the grace, and no slot it
    leases can be spent safely. Its callers wait — the slots go back, the lease is
    tried again — and go out once round trips are quick; a run's own deadline still
    ends a wait that lasts."""
    ZkTokens(zk).set_rate("partner.s", Rate(N, "second"))
    client = zk_client(zk_hosts)
    client.start(10)
    spike = threading.Event()
    spike.set()
    write = client.set

    def slow_write(*args, **kwargs):  # each answer 60 ms late while the spike lasts
        if spike.is_set():
            time.sleep(0.06)
        return write(*args, **kwargs)

    client.set = slow_write
    gate = CallGate(ZkTokens(client))
    try:
        with pytest.raises(TimeoutError):  # the run's deadline, as a worker sets it
            await asyncio.wait_for(gate("partner.s.call"), 0.5)
        assert "calls wait until it is known better" in caplog.text
        started = time.monotonic()  # before the timer, so the spike lasts at least 0.3 s of it
        threading.Timer(0.3, spike.clear).start()
        await asyncio.wait_for(gate("partner.s.call"), 5)
        assert 0.3 <= time.monotonic() - started < 3
    finally:
        spike.clear()
        client.stop()
        client.close()
