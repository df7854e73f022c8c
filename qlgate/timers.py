"""Many deadlines on one event-loop timer.

Every served request has a deadline (``gateway.requestTimeoutMs``), every
connection of the front a read or idle timeout, every upstream call an idle
timeout; nearly all of them are cancelled long before they are due. On uvloop
each ``loop.call_at`` is a libuv timer handle made, started, stopped and closed
(the close finishing on a later turn of the loop), and ``asyncio.timeout``
adds its own object and task bookkeeping on top: about 7 µs for a bare
``call_at`` and 15–18 µs for ``asyncio.timeout`` per use, measured under load
(``bench/served.py``, ``bench/engine_bench.py``), several times what the rest
of a timeout's work costs.

A ``TimerBoard`` keeps a loop's deadlines in one heap and holds a single loop
timer, armed for the earliest. Scheduling is a heap push (the timer is moved
only when a deadline comes before the one it is armed for, which is rare when
every request waits as long as the last); cancelling marks the entry, which is
dropped when it reaches the top or when the heap is compacted (cancelled
entries outnumbering live ones). Callbacks fire in deadline order, no earlier
than their deadline (less a millisecond: libuv's timers count milliseconds).

``deadline(seconds)`` is ``asyncio.timeout`` on a board: the task inside is
cancelled when the time is up and the ``async with`` raises ``TimeoutError``;
a cancellation from anywhere else passes through as it is.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import weakref
from collections.abc import Callable
from itertools import count
from types import TracebackType

log = logging.getLogger("qlgate.timers")

EARLY_S = 0.001  # a deadline this close is due: libuv rounds timers to milliseconds
COMPACT_AT = 1024  # cancelled entries kept before the heap is rebuilt without them


class Scheduled:
    """One callback on a board, until it fires or is cancelled."""

    __slots__ = ("_board", "callback", "cancelled", "when")

    def __init__(self, board: TimerBoard, when: float, callback: Callable[[], object]) -> None:
        self._board = board
        self.when = when
        self.callback: Callable[[], object] | None = callback
        self.cancelled = False

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            # the entry stays in the heap until its time or a compaction; what the callback
            # holds (a connection and its last answer, a task) must not stay with it
            self.callback = None
            self._board._cancelled_one()


class TimerBoard:
    """The deadlines of one event loop (``board()`` finds the running loop's)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        # weakly: ``_boards`` is keyed by the loop, and a closed loop must be freed with its board
        self._loop_ref = weakref.ref(loop)
        self._heap: list[tuple[float, int, Scheduled]] = []
        self._order = count()  # ties in ``when`` fire in the order they were scheduled
        self._timer: asyncio.TimerHandle | None = None
        self._timer_when = float("inf")
        self._cancelled = 0  # cancelled entries still in the heap

    def _loop(self) -> asyncio.AbstractEventLoop:
        loop = self._loop_ref()
        if loop is None:
            raise RuntimeError("the event loop of this timer board is gone")
        return loop

    def __len__(self) -> int:
        """Callbacks waiting (not cancelled)."""
        return len(self._heap) - self._cancelled

    def at(self, when: float, callback: Callable[[], object]) -> Scheduled:
        """Call ``callback()`` at ``when`` (the loop's clock) unless cancelled first."""
        entry = Scheduled(self, when, callback)
        heapq.heappush(self._heap, (when, next(self._order), entry))
        if when < self._timer_when:
            self._arm(when)
        return entry

    def later(self, seconds: float, callback: Callable[[], object]) -> Scheduled:
        return self.at(self._loop().time() + seconds, callback)

    def _arm(self, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer_when = when
        self._timer = self._loop().call_at(when, self._fire)

    def _cancelled_one(self) -> None:
        self._cancelled += 1
        if self._cancelled > COMPACT_AT and self._cancelled * 2 > len(self._heap):
            self._heap = [item for item in self._heap if not item[2].cancelled]
            heapq.heapify(self._heap)
            self._cancelled = 0

    def _fire(self) -> None:
        self._timer, self._timer_when = None, float("inf")
        due = self._loop().time() + EARLY_S
        try:
            # ``self._heap`` read anew each time: a callback that cancels may compact it into a new list
            while self._heap and self._heap[0][0] <= due:
                entry = heapq.heappop(self._heap)[2]
                if entry.cancelled:
                    self._cancelled -= 1
                    continue
                callback, entry.callback = entry.callback, None
                entry.cancelled = True  # fired (and out of the heap): a later cancel() is a no-op
                try:
                    if callback is not None:
                        callback()
                except Exception:  # one failing callback must not stop the others
                    log.exception("a timer callback failed")
        finally:  # whatever a callback raised, the board keeps a timer for what is left
            heap = self._heap
            while heap and heap[0][2].cancelled:  # arm for the next live deadline, not a dead one
                heapq.heappop(heap)
                self._cancelled -= 1
            if heap and heap[0][0] < self._timer_when:  # (a callback may have armed it already)
                self._arm(heap[0][0])

    def close(self) -> None:
        """Drop every deadline and the loop timer (the loop is closing)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_when = None, float("inf")
        for _, _, entry in self._heap:
            entry.cancelled, entry.callback = True, None
        self._heap.clear()
        self._cancelled = 0


# id(loop) → its board, weakly: the board's loop timer holds the loop, so a map holding
# boards strongly would keep every loop that ever had one (``qlgate.run`` makes one per script)
_boards: dict[int, weakref.ReferenceType[TimerBoard]] = {}


def board(loop: asyncio.AbstractEventLoop | None = None) -> TimerBoard:
    """The board of ``loop`` (the running loop's when not given), made when first asked.
    Whoever schedules on it keeps it (an armed timer, an entry, a connection)."""
    if loop is None:
        loop = asyncio.get_running_loop()
    ref = _boards.get(id(loop))
    found = ref() if ref is not None else None
    if found is None or found._loop_ref() is not loop:  # none yet, or a dead loop's under a reused id
        found = TimerBoard(loop)
        if len(_boards) >= 64:
            for key in [key for key, value in _boards.items() if value() is None]:
                del _boards[key]
        _boards[id(loop)] = weakref.ref(found)
    return found


class Deadline:
    """``async with deadline(seconds):`` — ``asyncio.timeout`` on the loop's board
    (``None``: no limit). One use per object, as ``asyncio.timeout``'s. Two deadlines
    less than ``EARLY_S`` apart may expire together (the board's resolution)."""

    __slots__ = ("_cancelling", "_entered", "_entry", "_expired", "_seconds", "_task")

    def __init__(self, seconds: float | None) -> None:
        self._seconds = seconds
        self._task: asyncio.Task[object] | None = None
        self._entry: Scheduled | None = None
        self._expired = False
        self._entered = False
        self._cancelling = 0

    def expired(self) -> bool:
        """Did the time run out (and cancel the task inside)?"""
        return self._expired

    async def __aenter__(self) -> Deadline:
        if self._entered:
            raise RuntimeError("a deadline is entered once")
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("deadline() is used inside a task")
        self._entered = True
        self._task = task
        self._cancelling = task.cancelling()
        if self._seconds is not None:
            self._entry = board().later(self._seconds, self._expire)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        entry, self._entry = self._entry, None
        if entry is not None:
            entry.cancel()
        task, self._task = self._task, None  # not kept (with its result) once the block is left
        # as asyncio.timeout: the cancellation was ours unless another came on top of it
        # (uncancel() first: it is owed whatever the block raised)
        if (
            self._expired
            and task is not None
            and task.uncancel() <= self._cancelling
            and exc_type is asyncio.CancelledError
        ):
            raise TimeoutError from exc

    def _expire(self) -> None:
        if self._entry is not None and self._task is not None:
            self._expired = True
            self._task.cancel()


def deadline(seconds: float | None) -> Deadline:
    return Deadline(seconds)
