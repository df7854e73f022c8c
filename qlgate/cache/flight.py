"""Single flight: identical idempotent requests in flight at the same time in one
process — from different scripts, different gateway requests — share one call.

The call runs as a task of its own, so a waiter that gives up (its gateway
request cancelled, its deadline past) does not cancel it for the others; when the
last waiter gives up, the call is cancelled too (a job cut off at its deadline
must close its upstream connection, not leave it reading). Every waiter gets its
own copy of the answer, or of the error.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class SingleFlight(Generic[T]):
    def __init__(self, copier: Callable[[T], T]):
        self._copier = copier
        self._flights: dict[object, _Flight] = {}

    def __len__(self) -> int:
        return sum(1 for flight in self._flights.values() if not flight.task.done())

    def __contains__(self, key: object) -> bool:
        flight = self._flights.get(key)
        return flight is not None and not flight.task.done()

    async def run(self, key: object, fetch: Callable[[], Awaitable[T]]) -> tuple[T, bool]:
        """The answer of ``fetch`` — this caller's or one already in flight for ``key`` —
        and whether it was shared (True: another caller started the call)."""
        flight = self._flights.get(key)
        shared = flight is not None and not flight.task.done()
        loop = asyncio.get_running_loop()
        if not shared:
            flight = self._flights[key] = _Flight()
            flight.task = loop.create_task(self._lead(key, flight, fetch))
        assert flight is not None
        # each waiter awaits a future of its own, which the call resolves as it ends: a
        # waiter cancelled cancels only its own (what ``asyncio.shield`` did, without the
        # shield's future, callbacks and extra turn of the loop per call)
        waiter: asyncio.Future[T] = loop.create_future()
        flight.waiting.append(waiter)
        flight.count += 1
        try:
            result = await waiter
        except asyncio.CancelledError:
            if flight.cancelled and not _current_cancelling():
                raise RuntimeError("the shared upstream call was cancelled") from None
            if not waiter.cancelled() and waiter.done():
                waiter.exception()  # resolved as this waiter was cancelled: retrieved, no warning
            if flight.count == 1 and not flight.task.done():
                flight.task.cancel()  # nobody waits for it any more
                if self._flights.get(key) is flight:
                    del self._flights[key]  # a caller that comes now starts a call of its own
            raise
        except Exception as e:  # noqa: BLE001 - every waiter re-raises its own copy of whatever the call raised
            raise _copy_error(e) from None
        finally:
            flight.count -= 1
            left = flight.count
        # the last waiter to resume may keep the original: every other one took its copy
        # already, and the call, done, is no longer found by a newcomer
        return (self._copier(result) if left else result), shared

    async def _lead(self, key: object, flight: _Flight, fetch: Callable[[], Awaitable[T]]) -> None:
        """The call, as a task of its own: it hands its outcome to each waiter itself."""
        try:
            result = await fetch()
        except asyncio.CancelledError:
            flight.cancelled = True
            self._end(key, flight, None, asyncio.CancelledError())
            del flight  # the traceback keeps this frame: no cycle through it
            raise
        except BaseException as e:  # every waiter gets it (the task itself ends without an error to retrieve)
            self._end(key, flight, None, e)
            del flight
            if not isinstance(e, Exception):
                raise
        else:
            self._end(key, flight, result, None)

    def _end(self, key: object, flight: _Flight, result: T | None, error: BaseException | None) -> None:
        if self._flights.get(key) is flight:
            del self._flights[key]
        waiting, flight.waiting = flight.waiting, []
        for waiter in waiting:
            if waiter.done():
                continue  # its waiter gave up
            if isinstance(error, asyncio.CancelledError):
                waiter.cancel()
            elif error is not None:
                waiter.set_exception(error)
            else:
                waiter.set_result(result)


class _Flight:
    """One call in flight: its task, the futures of those waiting for it and how many
    of them have not resumed yet."""

    __slots__ = ("cancelled", "count", "task", "waiting")

    def __init__(self) -> None:
        self.task: asyncio.Task[None]
        self.waiting: list[asyncio.Future] = []
        self.count = 0
        self.cancelled = False


def _current_cancelling() -> bool:
    task = asyncio.current_task()
    return bool(task is not None and task.cancelling())


def _copy_error(error: BaseException) -> BaseException:
    """Callers change the errors they catch (messages masked, diagnostics attached):
    each waiter raises a copy of its own (the original, if it cannot be copied)."""
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
