"""Single flight: identical idempotent requests in flight at the same time share
one call — within a run (a script that reads the same thing twice), and across
runs in one process (different scripts, different gateway requests).

The first caller for a key leads: it makes the call itself, in its own task, so
a shared call costs no task and no frame more than a call of its own (a task per
call was a fifth of a fan-out's engine work). Those that come while it is in
flight follow: each waits on a future of its own, which the leader resolves when
its call ends, with a copy of the answer or of the error. A follower that gives
up cancels only its own wait. A leader that gives up (its gateway request gone,
its job past its deadline) cancels its call — the connection is closed, not left
reading for nobody — and its followers, told ``Relead``, start again: the first
of them leads a call of its own, the others follow it.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Relead(Exception):
    """The leader gave up its call: a follower starts again (and may lead)."""


class Flight:
    """A call in flight: whose it is (``owner``, the leader's run) and the futures of
    those who follow it."""

    __slots__ = ("followers", "owner")

    def __init__(self, owner: object) -> None:
        self.owner = owner
        self.followers: list[asyncio.Future[Any]] = []


class SingleFlight(Generic[T]):
    def __init__(self, copier: Callable[[T], T]):
        self._copier = copier  # each follower gets its own copy of an answer
        self._flights: dict[object, Flight] = {}

    def __len__(self) -> int:
        return len(self._flights)

    def __contains__(self, key: object) -> bool:
        return key in self._flights

    def join(self, key: object, owner: object = None) -> tuple[Flight, asyncio.Future[T] | None]:
        """The flight for ``key``, and this caller's future to wait on if it follows
        one already in flight; None: it leads (it makes the call, then ``land``s it)."""
        flight = self._flights.get(key)
        if flight is None:
            flight = self._flights[key] = Flight(owner)
            return flight, None
        waiter: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        flight.followers.append(waiter)
        return flight, waiter

    async def follow(self, waiter: asyncio.Future[T]) -> T:
        """The answer the flight's leader lands (this follower's own copy of it); raises
        a copy of its error, or ``Relead`` if the leader gave up."""
        try:
            result = await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                waiter.exception()  # resolved as this follower was cancelled: retrieved, no warning
            raise
        except Relead:
            raise
        except Exception as e:  # noqa: BLE001 - every follower raises its own copy of what the call raised
            raise _copy_error(e) from None
        return result

    def land(self, key: object, flight: Flight, result: T | None = None, error: BaseException | None = None) -> None:
        """The leader's call ended (its ``result``, or its ``error``; a cancellation
        tells the followers to start again). A newcomer now makes a call of its own."""
        if self._flights.get(key) is flight:
            del self._flights[key]
        followers, flight.followers = flight.followers, []
        if isinstance(error, asyncio.CancelledError):
            error = Relead()
        for waiter in followers:
            if waiter.done():
                continue  # its follower gave up
            if error is not None:
                waiter.set_exception(error)
            else:  # copied now, before the leader reads its own: the copies share one memo
                waiter.set_result(self._copier(result))  # type: ignore[arg-type]

    async def run(self, key: object, fetch: Callable[[], Awaitable[T]], owner: object = None) -> tuple[T, bool]:
        """The answer of ``fetch`` — this caller's or one already in flight for ``key`` —
        and whether it was shared (True: another caller made the call). The engine's
        call path uses ``join``/``land`` itself, to spend no frame on this one."""
        while True:
            flight, waiter = self.join(key, owner)
            if waiter is None:
                break
            try:
                return await self.follow(waiter), True
            except Relead:
                continue
        try:
            result = await fetch()
        except BaseException as e:
            self.land(key, flight, error=e)
            raise
        self.land(key, flight, result)
        return result, False


def _copy_error(error: BaseException) -> BaseException:
    """Callers change the errors they catch (messages masked, diagnostics attached):
    each follower raises a copy of its own (the original, if it cannot be copied)."""
    try:
        fresh = copy.copy(error)
    except Exception:  # noqa: BLE001 - keyword-only arguments (UpstreamError, …): copy its state instead
        try:
            fresh = type(error).__new__(type(error), *error.args)
            fresh.__dict__.update(vars(error))
            fresh.args = error.args
        except Exception:  # noqa: BLE001
            return error
    fresh.__traceback__ = error.__traceback__
    details = getattr(error, "details", None)
    if isinstance(details, dict):
        fresh.details = dict(details)  # type: ignore[attr-defined]
    return fresh
