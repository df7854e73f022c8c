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
import functools
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class SingleFlight(Generic[T]):
    def __init__(self, copier: Callable[[T], T]):
        self._copier = copier
        self._tasks: dict[object, asyncio.Task[T]] = {}
        self._waiters: dict[asyncio.Task[T], int] = {}

    def __len__(self) -> int:
        return len(self._tasks)

    def __contains__(self, key: object) -> bool:
        return key in self._tasks

    async def run(self, key: object, fetch: Callable[[], Awaitable[T]]) -> tuple[T, bool]:
        """The answer of ``fetch`` — this caller's or one already in flight for ``key`` —
        and whether it was shared (True: another caller started the call)."""
        task = self._tasks.get(key)
        shared = task is not None
        if task is None:
            task = asyncio.ensure_future(fetch())
            self._tasks[key] = task
            task.add_done_callback(functools.partial(self._forget, key))
        self._waiters[task] = self._waiters.get(task, 0) + 1
        try:
            result = await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled() and not _current_cancelling():
                raise RuntimeError("the shared upstream call was cancelled") from None
            if self._waiters.get(task) == 1 and not task.done():
                task.cancel()  # nobody waits for it any more
                if self._tasks.get(key) is task:
                    del self._tasks[key]  # a caller that comes now starts a call of its own
            raise
        except Exception as e:  # noqa: BLE001 - every waiter re-raises its own copy of whatever the call raised
            raise _copy_error(e) from None
        finally:
            left = self._waiters.get(task, 1) - 1
            if left:
                self._waiters[task] = left
            else:
                self._waiters.pop(task, None)
        # the last waiter to resume may keep the original: every other one took its copy
        # already, and the call, done, is no longer found by a newcomer (``_forget``)
        return (self._copier(result) if left else result), shared

    def _forget(self, key: object, task: asyncio.Task[T]) -> None:
        if self._tasks.get(key) is task:
            del self._tasks[key]
        if not task.cancelled():
            task.exception()  # retrieved: no "never retrieved" warning when nobody waited


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
