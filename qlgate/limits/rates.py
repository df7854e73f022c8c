"""Call-rate limits per type (guarantee 7), across every job of the type and
every process that runs them: at most N upstream calls per second, or per day
for daily API quotas.

Per second, the limit holds in every sliding one-second window, the way a
partner that counts the last second sees it — not per epoch second, which
would let a burst at the end of one second and another at the start of the
next make 2N in one. Calls are spaced in time slots leased from a shared
store: slots T = (1 + g)/N apart, each to be spent within g = 50 ms of its
time, so no window [t, t + 1) holds more than N, and a type gets N/(1 + g),
95% of N, at most (the arithmetic is in ``slots.py``). Slot times are the
store's clock — ZooKeeper's, as it stamps writes, which each process bounds
from its own writes (``clock.py``) — so the wall clocks of the workers'
hosts need not agree. While a process cannot know that clock to within the
grace (ZooKeeper round trips over about 50 ms), it cannot spend a slot safely:
its callers then wait, giving the slots back and leasing again with fresh
readings, until it can; a run's own deadline ends that wait like any other.

Where that bound holds: at the gate. It spaces the moments calls *leave* it (in
the store's clock); a partner counts the moments they *arrive*. The grace is
spent at the gate — a slot's call may leave anywhere in its 50 ms — so none is
left for the way there: if the time from the gate to the partner varies by J
from one call to another, a sliding second at the partner can hold up to
N + ⌈N·J/(1 + g)⌉ calls (slots of an interval 1 + g + J long instead of 1 + g).
J comes from a cold connection (DNS, TCP and TLS handshakes: tens to hundreds of
milliseconds, where a kept-alive connection has none), a connection pool at its
limit (the call queues for a connection after the gate), the event loop being
busy, network jitter. And a token is spent per call, not per HTTP request: the
HTTP client's one retry of a read after a network failure, and the redirects it
follows, go out on the call's token. A partner that must never count more than
N is kept there by a lower rate: the largest M with M + ⌈M·J/(1 + g)⌉ ≤ N for
the J expected (20/s and J = 100 ms: 18/s).

Per day, the window is the calendar day in the rate's time zone (eBay's quotas
reset at midnight in America/Los_Angeles): a budget of N tokens per local
date, so a day of 23 or 25 hours, when daylight saving time begins or ends, is
simply that long. Which date it is each process reads off its own host's wall
clock, and hosts disagree by their skew at midnight; so that no disagreement
hands out a day's budget twice, days only move forward in a store: a day is
opened only if no later one has been, and the day before the newest is kept
for hosts whose clocks lag (see ``stores/zk_rates.py``).

Either way a process leases tokens in batches — from ZooKeeper by
compare-and-set (``stores/zk_rates.py``) or, for the embedded backend, from memory —
so that no upstream call waits on ZooKeeper but the one that takes a batch for
the calls waiting with it. A batch is sized to the calls waiting in the
process (plus a little of its recent use), not to the rate, so an idle process
holds nothing others could use."""

from __future__ import annotations

import asyncio
import bisect
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .api_types import type_of_table
from .rate import Rate
from .slots import GRACE_NS, SECOND_NS, Slots, lease_size, spacing_ns

# the name operators' log settings know it by, from before the rates moved out of qlgate/jobs/
log = logging.getLogger("qlgate.jobs.rates")


class QuotaSpent(Exception):
    """A daily quota spent for today: no token until ``retry_after`` seconds from now."""

    def __init__(self, job_type: str, rate: Rate, retry_after: float):
        super().__init__(f"{job_type}: its quota of {rate} is spent for today")
        self.job_type, self.rate, self.retry_after = job_type, rate, retry_after


class TokenStore(Protocol):
    """Where the processes sharing a rate take their tokens. A store whose methods
    never wait on I/O may say so with ``blocks = False``: the gate then calls them
    on its event loop rather than in a thread."""

    def rate(self, job_type: str) -> Rate | None: ...

    def lease(self, job_type: str, rate: Rate, window: str, count: int) -> int:
        """Up to ``count`` tokens of a day's budget; 0 when it is spent."""

    def give_back(self, job_type: str, window: str, count: int) -> None: ...

    def lease_slots(self, job_type: str, rate: Rate, count: int) -> Slots:
        """The next ``count`` free time slots of a per-second rate."""

    def return_slots(self, job_type: str, slots: Slots, first_unspent: int) -> None:
        """Hand back slots ``first_unspent`` … of a lease, if no one has leased after it."""


RECHECK_S = 1.0  # a caller with no token in sight looks again this often: the rate may change
SETTLE_S = 0.05  # slots leased unspendable: try again after this, twice as long each time, to RECHECK_S
AHEAD_NS = SECOND_NS // 2  # a process reserves no slot further ahead: the others queue behind it, not it alone
SLOT_SHARE = 0.1  # a per-second lease also covers this share of the last second's calls …
DAY_SHARE = 1.0  # … a daily one this share (its tokens do not expire until midnight)


@dataclass(frozen=True)
class _Held:
    opens: int  # this process's monotonic ns
    closes: int
    slots: Slots
    index: int


class CallGate:
    """What a run awaits before each upstream call: a token of the call's type.
    The call must go out as soon as the gate returns — a per-second token is
    good only until its slot's grace ends, and is checked at that return. One
    gate serves a process; callers waiting on the same event loop share each
    lease."""

    def __init__(self, store: TokenStore, *, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock  # wall clock: which calendar day it is (slots use time.monotonic_ns)
        self._lock = threading.Lock()
        self._days: dict[tuple[str, str], int] = {}  # (type, day) → tokens in hand
        self._slots: dict[str, list[_Held]] = {}  # type → slots in hand, earliest first
        self._reserved: dict[str, int] = {}  # type → the latest slot in hand or taken
        self._waiting: Counter[str] = Counter()  # type → callers with no token yet
        self._recent: dict[str, deque[int]] = {}  # type → when its calls of the last second went
        self._leasing: dict[str, asyncio.Future] = {}  # type → the lease being taken for it
        self._unusable: dict[str, int] = {}  # type → leases in a row that could not be spent
        self._tasks: set[asyncio.Task] = set()  # leases under way (the loop keeps weak references)
        self._spent_on: dict[str, tuple[str, float]] = {}  # type → (day, when) a lease found it spent

    async def __call__(self, table: str) -> None:
        await self.acquire(type_of_table(table))

    async def acquire(self, job_type: str, *, patient: bool = True) -> None:
        """A token of ``job_type`` (an API type). ``patient``: a spent daily quota is
        waited out (a job may wait for midnight); otherwise ``QuotaSpent`` says at once
        when the next day begins (an interactive call would only wait to fail)."""
        counted = False
        try:
            while True:
                rate = self.store.rate(job_type)
                if rate is None:
                    return
                if rate.per == "day":
                    if self._take_day(job_type, rate.window(self.clock())):
                        return
                    if self._spent(job_type, rate):  # until midnight, or until the quota is raised
                        now = self.clock()
                        if not patient:
                            raise QuotaSpent(job_type, rate, rate.window_end(now) - now)
                        await asyncio.sleep(min(RECHECK_S, max(0.0, rate.window_end(now) - now)) + 0.001)
                        continue
                else:
                    held = self._take_slot(job_type)
                    if held is not None:
                        if counted:
                            counted = self._count(job_type, -1)
                        if await self._wait_for(held):
                            self._note(job_type)
                            return
                        continue  # this loop woke too late: the slot is gone, take another
                if not counted:
                    counted = self._count(job_type, +1)
                await self._replenish(job_type, rate)
        finally:
            if counted:
                self._count(job_type, -1)

    def _spent(self, job_type: str, rate: Rate) -> bool:
        """Whether a daily lease of ``job_type`` found today's budget spent in the last
        ``RECHECK_S`` (after that a caller leases again: the quota may have been raised)."""
        with self._lock:
            spent = self._spent_on.get(job_type)
        return spent is not None and spent[0] == rate.window(self.clock()) and time.monotonic() - spent[1] < RECHECK_S

    def _count(self, job_type: str, delta: int) -> bool:
        with self._lock:
            self._waiting[job_type] += delta
        return delta > 0

    # ------------------------------------------------------------------ days
    def _take_day(self, job_type: str, window: str) -> bool:
        with self._lock:
            key = (job_type, window)
            left = self._days.get(key, 0)
            if left <= 0:
                return False
            self._days[key] = left - 1
            self._note_locked(job_type)
            return True

    async def _lease_day(self, job_type: str, rate: Rate) -> None:
        now = self.clock()
        window = rate.window(now)
        count = self._size(job_type, DAY_SHARE, max(1, rate.calls // 100))
        got = await self._ask(self.store.lease, job_type, rate, window, count) if rate.calls else 0
        with self._lock:
            if got:
                self._spent_on.pop(job_type, None)
            else:
                self._spent_on[job_type] = (window, time.monotonic())
        if got:
            with self._lock:
                for key in [k for k in self._days if k[0] == job_type and k[1] != window]:
                    del self._days[key]  # other days' tokens are worthless
                self._days[(job_type, window)] = self._days.get((job_type, window), 0) + got
            return

    # ------------------------------------------------------------------ slots
    def _take_slot(self, job_type: str) -> _Held | None:
        now = time.monotonic_ns()
        with self._lock:
            held = self._slots.get(job_type)
            while held and held[0].closes <= now:
                held.pop(0)  # expired unspent: its time is gone
            return held.pop(0) if held else None

    @staticmethod
    async def _wait_for(held: _Held) -> bool:
        """Sleep until the slot opens; False if the loop woke after it closed."""
        while (now := time.monotonic_ns()) < held.opens:
            await asyncio.sleep((held.opens - now) / 1e9)
        return now < held.closes

    async def _lease_slots(self, job_type: str, rate: Rate) -> None:
        if rate.calls == 0:
            await asyncio.sleep(RECHECK_S)
            return
        with self._lock:
            ahead = self._reserved.get(job_type, 0) - time.monotonic_ns() - AHEAD_NS
        if ahead > 0:  # enough reserved already: let the rest of the cluster in first
            await asyncio.sleep(ahead / 1e9)
            return
        count = self._size(job_type, SLOT_SHARE, max(1, AHEAD_NS // spacing_ns(rate.calls)))
        slots = await self._ask(self.store.lease_slots, job_type, rate, count)
        if slots.spendable <= 0:
            await self._settle(job_type, slots)
            return
        if self._unusable.pop(job_type, 0):
            log.info("type %s: call slots can be spent again", job_type)
        with self._lock:
            held = self._slots.setdefault(job_type, [])
            for index in range(slots.count):
                opens = slots.opens(index)
                bisect.insort(held, _Held(opens, opens + slots.spendable, slots, index), key=lambda h: h.opens)
            self._reserved[job_type] = max(self._reserved.get(job_type, 0), slots.opens(slots.count - 1))

    async def _settle(self, job_type: str, slots: Slots) -> None:
        """Slots this process cannot spend safely: it knows the store's clock no better
        than the grace is wide (ZooKeeper round trips over about 50 ms, a latency spike).
        The callers wait rather than fail: the slots go back, and the lease is tried
        again a little later, with fresh readings of the clock, until a round trip is
        quick again — or a caller's own deadline (its run's) cancels its wait."""
        try:
            await self._ask(self.store.return_slots, job_type, slots, 0)
        except Exception:  # they expire unspent instead: a loss of throughput, not of the bound
            log.debug("type %s: unspendable slots could not be given back", job_type, exc_info=True)
        tries = self._unusable[job_type] = self._unusable.get(job_type, 0) + 1
        if tries == 1:
            log.warning(
                "type %s: call slots cannot be spent here, ZooKeeper's clock is known only to "
                "±%.0f ms (slow round trips); calls wait until it is known better",
                job_type,
                (GRACE_NS - slots.spendable) / 2e6,
            )
        await asyncio.sleep(min(RECHECK_S, SETTLE_S * 2 ** (tries - 1)))

    # ------------------------------------------------------------------ leasing, shared
    async def _replenish(self, job_type: str, rate: Rate) -> None:
        """Take a lease for the callers waiting, or wait for the one being taken."""
        loop = asyncio.get_running_loop()
        with self._lock:
            current = self._leasing.get(job_type)
            mine = current is None
            pending = loop.create_future() if current is None else current
            if mine:
                self._leasing[job_type] = pending
        if not mine:
            if pending.get_loop() is loop:
                await asyncio.shield(pending)
            else:  # a caller on another event loop is leasing: look again shortly
                await asyncio.sleep(0.005)
            return
        # the lease runs as a task of its own: a caller whose deadline passes mid-lease leaves
        # it to finish, so the tokens a store hands out are kept for the next caller, not lost
        task = loop.create_task(self._lease(job_type, rate, pending))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        await asyncio.shield(pending)

    async def _lease(self, job_type: str, rate: Rate, pending: asyncio.Future) -> None:
        try:
            if rate.per == "day":
                await self._lease_day(job_type, rate)
            else:
                await self._lease_slots(job_type, rate)
        except Exception as error:  # noqa: BLE001 — handed to the callers waiting on it
            if not pending.done():
                pending.set_exception(error)
                pending.exception()  # retrieved: a waiter that left must not leave it unread
        finally:
            with self._lock:
                self._leasing.pop(job_type, None)
            if not pending.done():
                pending.set_result(None)

    async def _ask(self, method: Callable, *args):
        """A store's answer: in a thread if it waits on I/O (ZooKeeper); at once if not
        (memory) — a hop to a thread and back can make a slot late on a busy host."""
        if getattr(self.store, "blocks", True):
            return await asyncio.to_thread(method, *args)
        return method(*args)

    def _size(self, job_type: str, share: float, cap: int) -> int:
        with self._lock:
            return lease_size(self._waiting[job_type], len(self._recent_locked(job_type)), share, cap)

    def _note(self, job_type: str) -> None:
        with self._lock:
            self._note_locked(job_type)

    def _note_locked(self, job_type: str) -> None:
        self._recent_locked(job_type).append(time.monotonic_ns())

    def _recent_locked(self, job_type: str) -> deque[int]:
        recent = self._recent.setdefault(job_type, deque())
        since = time.monotonic_ns() - SECOND_NS
        while recent and recent[0] <= since:
            recent.popleft()
        return recent

    def give_back(self) -> None:
        """Tokens in hand go back for others: a day's unspent ones, and reserved slots
        that no one has leased after (a store only moves its next free slot back
        when that slot is the end of the lease; earlier slots expire unused)."""
        with self._lock:
            days, self._days = self._days, {}
            slots, self._slots = self._slots, {}
            self._reserved.clear()
        for (job_type, window), count in days.items():
            if count > 0:
                self.store.give_back(job_type, window, count)
        for job_type, held in slots.items():
            first: dict[int, tuple[Slots, int]] = {}
            for h in held:
                lease, index = first.get(id(h.slots), (h.slots, h.index))
                first[id(h.slots)] = (lease, min(index, h.index))
            for lease, index in sorted(first.values(), key=lambda f: -f[0].start):  # latest first: each may
                self.store.return_slots(job_type, lease, index)  # make the one before the end
