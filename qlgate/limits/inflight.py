"""Calls in flight per API type, held to the type's limit across every process
that shares a store.

A type's limit N (``qlgate jobs limits TYPE N``) bounds the jobs of the type
running at once, and — here — the upstream calls of the type in flight at once,
from any process. The count lives in a shared store (the job backend's SQLite
file on one host, ZooKeeper in a cluster), in *units*: each process records how
many it holds, and takes more only while the total stays within N. It spends one
per call and keeps idle ones a moment (``LINGER_S``), so a steady stream of calls
reuses them without asking the store; no call waits on the store but for the
one request that takes units for all the callers waiting with it.

What a process tells the store is absolute — "I hold k, and want w more" — never
a difference, so a request whose answer was lost (a ZooKeeper connection that
dropped mid-write) is simply made again: no unit can leak or count twice.

Fair shares: a process that wants units the others hold says so (``wanting``).
The others then keep no more than the type's limit divided among the processes
that want it: as their calls end, units above that share go back instead of to
their next caller, so a worker busy with jobs cannot starve a gateway's callers.

A process that dies gives its units back by dying: the SQLite store counts only
live processes' units, ZooKeeper only live sessions'. A process whose ZooKeeper
session expired lost its units with it (``UnitStore.epoch`` changes): it starts
again from none, so the calls it had in flight at that moment are the most by
which the limit can be exceeded, for as long as they last.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple, Protocol

log = logging.getLogger("qlgate.limits")

LINGER_S = 0.1  # units unused this long go back to the store
POLL_FIRST_S = 0.01  # no unit free in the store: look again after this, doubling …
POLL_MAX_S = 0.2  # … up to this; also how often a process over its fair share looks again


class Holding(NamedTuple):
    held: int  # the units this process now holds
    others_wanting: int  # other processes with callers waiting for units


class UnitStore(Protocol):
    """Where the processes sharing limits count their calls in flight."""

    blocks: bool  # True: its methods wait on I/O, so they run on a thread

    def limit(self, api: str) -> int | None:
        """The type's limit (None: none); cheap, cached by the store."""

    def hold(self, api: str, limit: int, total: int, wanting: int) -> Holding:
        """Make this process hold ``total`` units of ``api`` — fewer if the others leave
        less room under ``limit`` (never fewer than it holds, unless ``total`` is less) —
        and record that it wants ``wanting`` more besides what it did not get."""

    @property
    def epoch(self) -> object:
        """Changes when every unit this process held was lost (a ZooKeeper session)."""

    def in_use(self) -> dict[str, int]:
        """Units held per type, by every process."""


def settle(mine: int, others: int, limit: int, total: int) -> int:
    """What a process holding ``mine`` ends up holding when it asks for ``total`` and the
    others hold ``others``: what it asks if that is less, else as much as fits."""
    if total <= mine:
        return total
    return max(mine, min(total, limit - others))


@dataclass
class _Type:
    """One API type's units in this process."""

    api: str
    held: int = 0  # units callers here may spend (never more than the store confirmed)
    stored: int = 0  # what the store last confirmed it records for this process (-1: unknown)
    recorded_unmet: int = 0  # what the store records this process as still wanting
    busy: int = 0  # spent on calls in flight
    share: int | None = None  # while others want units: the most this process keeps
    waiters: deque[asyncio.Future] = field(default_factory=deque)
    idle_since: float | None = None
    task: asyncio.Task | None = None
    limit: int = 0

    def room(self) -> bool:
        return self.busy < self.held and (self.share is None or self.busy < self.share)


class InFlight:
    """This process's share of the calls in flight: units held, units busy, and
    callers waiting for one, first come first served."""

    def __init__(self, store: UnitStore):
        self.store = store
        self._lock = threading.Lock()
        self._types: dict[str, _Type] = {}
        self._epoch = store.epoch
        self._tasks: set[asyncio.Task] = set()
        self._warned: dict[str, float] = {}

    def busy(self) -> dict[str, int]:
        """Calls of each type in flight from this process."""
        with self._lock:
            return {api: t.busy for api, t in self._types.items() if t.busy}

    def waiting(self) -> dict[str, int]:
        with self._lock:
            return {api: len(t.waiters) for api, t in self._types.items() if t.waiters}

    async def enter(self, api: str, limit: int) -> None:
        """Wait for a unit of ``api`` (cancel the wait to give up)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            self._check_epoch()
            state = self._types.setdefault(api, _Type(api))
            state.limit = limit
            if state.room() and not state.waiters:
                state.busy += 1
                state.idle_since = None
                return
            future: asyncio.Future = loop.create_future()
            state.waiters.append(future)
        self._kick(api)
        try:
            await future
        except asyncio.CancelledError:
            with self._lock:
                granted = future.done() and not future.cancelled()
                if future in state.waiters:
                    state.waiters.remove(future)
            if granted:  # the unit came as the wait was cancelled: it is not used
                self.leave(api)
            raise

    def leave(self, api: str) -> None:
        """A call of ``api`` ended: its unit goes to the next caller waiting, or rests
        (and goes back to the store if it rests long, or if others want it)."""
        with self._lock:
            state = self._types[api]
            state.busy = max(0, state.busy - 1)
            self._grant_locked(state)
            if state.busy < state.held and state.idle_since is None:
                state.idle_since = time.monotonic()
            wake = state.busy < state.held and (state.task is None or state.task.done())
        if wake:
            self._kick(api)

    def _grant_locked(self, state: _Type) -> None:
        while state.waiters and state.room():
            future = state.waiters.popleft()
            if future.done():
                continue
            state.busy += 1
            _wake(future, partial(self.leave, state.api))
        if state.busy >= state.held:
            state.idle_since = None

    def _check_epoch(self) -> None:
        epoch = self.store.epoch
        if epoch != self._epoch:  # the store forgot this process's units (a new session)
            self._epoch = epoch
            for state in self._types.values():
                # the calls in flight end as they will; new ones take afresh
                state.held = state.stored = state.recorded_unmet = 0

    def _kick(self, api: str) -> None:
        with self._lock:
            state = self._types[api]
            if state.task is not None and not state.task.done():
                return
            state.task = self._spawn(self._sync(api, state))

    async def _sync(self, api: str, state: _Type) -> None:
        """Bring what the store records for this process in line with what it needs —
        more for callers waiting, fewer once units rest or others want them, and no
        "wanting" left behind once nobody waits — until it is in line."""
        pause = POLL_FIRST_S
        while True:
            with self._lock:
                self._check_epoch()
                self._grant_locked(state)
                want = state.busy + len(state.waiters)
                now = time.monotonic()
                resting = state.idle_since is not None and now - state.idle_since >= LINGER_S
                if want > state.held or (want < state.held and (resting or state.share is not None)):
                    target = want
                else:
                    target = state.held
                if state.share is not None:
                    target = max(state.busy, min(target, state.share))
                wanting = max(0, want - target)
                # the store has what this process holds and wants, and it keeps no more than its share
                in_line = (
                    target == state.held == state.stored
                    and state.recorded_unmet == wanting
                    and not state.waiters
                    and (state.share is None or target <= state.share)
                )
                linger = state.idle_since is not None and state.busy < state.held
                if target < state.held:
                    # fewer: no caller may take them from now on, before the store hears of it
                    state.held = target
            if in_line and not linger:
                return
            if in_line:  # units rest: look again when they have rested long enough
                await asyncio.sleep(max(0.0, LINGER_S - (now - (state.idle_since or now))) + 0.001)
                continue
            try:
                limit = self.store.limit(api)
                holding = await self._ask(
                    self.store.hold, api, state.limit if limit is None else limit, target, wanting
                )
            except Exception:  # noqa: BLE001 — the store is out of reach: callers wait, to their deadlines
                self._warn(api)
                holding = None
            with self._lock:
                if holding is not None:
                    # what the store holds now; usable here only up to what was asked
                    state.stored = holding.held
                    state.held = min(holding.held, max(target, state.held))
                    state.recorded_unmet = wanting + max(0, target - holding.held)
                    others = holding.others_wanting
                    state.share = max(1, (limit or state.limit) // (others + 1)) if others else None
                    if state.busy >= state.held:
                        state.idle_since = None
                else:
                    state.stored = -1  # unknown until the store answers: ask again
                before = len(state.waiters)
                self._grant_locked(state)
                progressed = holding is not None and (len(state.waiters) < before or not state.waiters)
            if progressed:
                pause = POLL_FIRST_S
                continue
            await asyncio.sleep(pause)
            pause = min(POLL_MAX_S, pause * 2)

    def _warn(self, api: str) -> None:
        """One warning a minute per type while the store is out of reach."""
        now = time.monotonic()
        if now - self._warned.get(api, -60.0) >= 60.0:
            self._warned[api] = now
            log.warning("calls in flight of %s cannot be counted now (the store is out of reach)", api, exc_info=True)

    def _spawn(self, coroutine: Any) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self._tasks.discard)
        return task

    async def _ask(self, method, *args):
        if self.store.blocks:
            return await asyncio.to_thread(method, *args)
        return method(*args)

    def stop_background(self) -> None:
        """Cancel the syncs under way, from any thread."""
        for task in list(self._tasks):
            with contextlib.suppress(RuntimeError):  # its loop is closed: it is gone with it
                task.get_loop().call_soon_threadsafe(task.cancel)

    def give_back_all(self) -> None:
        """Units in hand go back (closing): a blocking call, from any thread."""
        self.stop_background()
        with self._lock:
            held = {api: (t.held, t.limit) for api, t in self._types.items() if t.held or t.stored or t.recorded_unmet}
            for state in self._types.values():
                state.held = state.stored = state.recorded_unmet = 0
        for api, (_, limit) in held.items():
            try:
                self.store.hold(api, limit, 0, 0)
            except Exception:
                log.debug("units of %s could not be given back", api, exc_info=True)


def _wake(future: asyncio.Future, lost: Callable[[], None]) -> None:
    """Resolve a waiter's future, on its own loop; ``lost``: give the unit back if the
    waiter was cancelled before the grant reached it."""
    loop = future.get_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        future.set_result(None)
    else:
        loop.call_soon_threadsafe(_settle_future, future, lost)


def _settle_future(future: asyncio.Future, lost: Callable[[], None]) -> None:
    if future.done():
        lost()  # cancelled meanwhile: nobody will spend or return this unit
    else:
        future.set_result(None)
