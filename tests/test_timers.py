"""The timer board (``qlgate/timers.py``): many deadlines on one loop timer, and
``deadline()``, its ``asyncio.timeout``. On the event loop the gateway runs on."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref

import pytest

from qlgate.timers import COMPACT_AT, EARLY_S, TimerBoard, board, deadline


async def test_callbacks_fire_in_deadline_order_and_never_before_their_time():
    loop = asyncio.get_running_loop()
    fired: list[tuple[str, float]] = []
    start = loop.time()
    mine = board()
    for name, after in (("c", 0.06), ("a", 0.02), ("b", 0.04)):  # scheduled out of order
        mine.at(start + after, lambda name=name: fired.append((name, loop.time() - start)))
    await asyncio.sleep(0.1)
    assert [name for name, _ in fired] == ["a", "b", "c"]
    for (_, at), due in zip(fired, (0.02, 0.04, 0.06), strict=True):
        assert at >= due - EARLY_S


async def test_a_cancelled_callback_never_fires_and_the_next_live_one_still_does():
    fired: list[str] = []
    mine = board()
    first = mine.later(0.02, lambda: fired.append("first"))
    mine.later(0.05, lambda: fired.append("second"))
    first.cancel()
    await asyncio.sleep(0.08)
    assert fired == ["second"]
    assert len(mine) == 0


async def test_an_earlier_deadline_moves_the_one_loop_timer_forward():
    loop = asyncio.get_running_loop()
    fired: list[float] = []
    start = loop.time()
    mine = board()
    mine.later(5.0, lambda: fired.append(5.0))  # arms the loop timer 5 s out
    mine.later(0.02, lambda: fired.append(loop.time() - start))
    await asyncio.sleep(0.1)
    assert len(fired) == 1 and fired[0] < 0.09  # not held back until the 5 s one


async def test_many_deadlines_cost_one_loop_timer(monkeypatch):
    """The point of the board: scheduling a deadline later than the armed one makes
    no loop timer (each of uvloop's is a libuv handle made and closed)."""
    loop = asyncio.get_running_loop()
    made = 0
    call_at = loop.call_at

    def counting_call_at(when, callback, *args, **kwargs):
        nonlocal made
        made += 1
        return call_at(when, callback, *args, **kwargs)

    monkeypatch.setattr(loop, "call_at", counting_call_at)
    mine = TimerBoard(loop)
    entries = [mine.later(30.0 + i / 1000, lambda: None) for i in range(1000)]
    for entry in entries:
        entry.cancel()
    assert made == 1
    mine.close()


async def test_cancelled_entries_do_not_pile_up():
    mine = TimerBoard(asyncio.get_running_loop())
    for i in range(20 * COMPACT_AT):
        mine.later(30.0 + i / 1e6, lambda: None).cancel()
    assert len(mine._heap) <= 2 * COMPACT_AT + 2
    live = mine.later(60.0, lambda: None)
    assert len(mine) == 1 and not live.cancelled
    mine.close()


async def test_a_failing_callback_is_logged_and_the_others_still_fire(caplog):
    fired: list[str] = []
    mine = board()

    def broken() -> None:
        raise ValueError("boom")

    mine.later(0.01, broken)
    mine.later(0.01, lambda: fired.append("after"))
    with caplog.at_level(logging.ERROR, logger="qlgate.timers"):
        await asyncio.sleep(0.05)
    assert fired == ["after"]
    assert "a timer callback failed" in caplog.text


async def test_each_loop_has_its_own_board():
    mine = board()
    assert board() is mine
    other_loop = asyncio.new_event_loop()
    try:
        assert board(other_loop) is not mine
    finally:
        other_loop.close()


# ---------------------------------------------------------------- deadline()


async def test_deadline_cancels_the_work_and_raises_timeout_error():
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(TimeoutError):
        async with deadline(0.03) as limit:
            await asyncio.sleep(5)
    assert limit.expired()
    assert 0.03 - EARLY_S <= loop.time() - start < 1.0


async def test_work_done_in_time_is_not_touched():
    async with deadline(1.0) as limit:
        await asyncio.sleep(0.01)
        value = 42
    assert value == 42 and not limit.expired()
    assert asyncio.current_task().cancelling() == 0
    await asyncio.sleep(0.001)  # and the task is not cancelled later by a forgotten entry


async def test_a_cancellation_from_outside_passes_through_as_cancellation():
    entered = asyncio.Event()

    async def work() -> None:
        async with deadline(5.0):
            entered.set()
            await asyncio.sleep(5)

    task = asyncio.create_task(work())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_the_inner_of_two_deadlines_times_out_only_itself():
    async with deadline(5.0) as outer:
        with pytest.raises(TimeoutError):
            async with deadline(0.02):
                await asyncio.sleep(5)
        await asyncio.sleep(0.01)  # the outer one still lets the task run
    assert not outer.expired()
    assert asyncio.current_task().cancelling() == 0


async def test_deadline_outside_a_task_is_refused():
    loop = asyncio.get_running_loop()
    outcome: asyncio.Future[BaseException] = loop.create_future()

    def from_a_callback() -> None:  # a loop callback runs in no task
        coro = deadline(1.0).__aenter__()
        try:
            coro.send(None)
        except BaseException as error:  # noqa: BLE001 - what it raised is the point
            outcome.set_result(error)
        finally:
            coro.close()

    loop.call_soon(from_a_callback)
    assert isinstance(await outcome, RuntimeError)


async def test_callbacks_that_cancel_many_others_while_firing_keep_the_board_whole():
    """A callback may cancel enough entries to compact the heap while the board fires:
    every live entry still fires once, on time, and the count of those waiting is right."""
    loop = asyncio.get_running_loop()
    mine = TimerBoard(loop)
    doomed = [mine.later(10.0 + i / 1e6, lambda: None) for i in range(3 * COMPACT_AT)]
    fired: list[str] = []

    def cancel_them() -> None:
        fired.append("canceller")
        for entry in doomed:
            entry.cancel()

    mine.later(0.01, cancel_them)
    mine.later(0.01, lambda: fired.append("same time"))
    mine.later(0.03, lambda: fired.append("later"))
    await asyncio.sleep(0.06)
    assert fired == ["canceller", "same time", "later"]
    assert len(mine) == 0 and mine._cancelled == 0
    mine.close()


class _Held:
    """Something a callback holds (a connection and its last answer, a task)."""


async def test_a_cancelled_entry_lets_go_of_what_its_callback_held():
    mine = board()
    held = _Held()
    alive = weakref.ref(held)
    entry = mine.later(30.0, lambda held=held: held)
    del held
    entry.cancel()  # still in the heap until its time: it must not keep the callback's objects
    gc.collect()
    assert alive() is None


async def test_deadlines_let_go_of_their_tasks_once_left():
    async def work() -> _Held:
        async with deadline(30.0):
            return _Held()

    results = [await asyncio.create_task(work()) for _ in range(200)]
    alive = [weakref.ref(result) for result in results]
    del results
    gc.collect()
    assert sum(ref() is not None for ref in alive) <= 2  # (the last task may linger in the loop a turn)


def test_a_closed_loop_is_freed_with_its_board():
    loop = asyncio.new_event_loop()
    loop.run_until_complete(_schedule_far())
    gone = weakref.ref(loop)
    loop.close()
    del loop
    gc.collect()
    assert gone() is None


async def _schedule_far() -> None:
    board().later(3600.0, lambda: None)


async def test_a_callback_raising_past_exception_still_leaves_a_timer_for_the_rest():
    loop = asyncio.get_running_loop()
    mine = TimerBoard(loop)
    fired: list[str] = []

    def cancelled() -> None:
        raise asyncio.CancelledError

    mine.later(0.01, cancelled)
    mine.later(0.03, lambda: fired.append("next"))
    loop.set_exception_handler(lambda _loop, _context: None)  # the loop reports the first one
    await asyncio.sleep(0.08)
    loop.set_exception_handler(None)
    assert fired == ["next"]


async def test_a_deadline_is_entered_once_and_none_means_no_limit():
    limit = deadline(None)
    async with limit:
        await asyncio.sleep(0.01)
    assert not limit.expired()
    with pytest.raises(RuntimeError):
        async with limit:
            pass
