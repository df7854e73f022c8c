"""The send window of a fan-out: a bound on requests in flight, and sends before decodes."""

import asyncio

from qlgate.engine.window import SendWindow


async def test_never_more_requests_in_flight_than_the_window():
    window, in_flight, peak = SendWindow(3), 0, 0

    async def request(i: int) -> int:
        nonlocal in_flight, peak
        async with window:
            in_flight += 1
            peak = max(peak, in_flight)
            await asyncio.sleep(0.001 * (i % 4))
            in_flight -= 1
        await window.sends_first()
        return i

    assert await asyncio.gather(*(request(i) for i in range(20))) == list(range(20))
    assert peak == 3


async def hand_over_the_only_slot(*, send_from_own_task: bool) -> list[str]:
    """A request gets its answer and passes the window's one slot to the next: which
    happens first, the next request going out or the answer being decoded?"""
    window, events = SendWindow(1), []

    async def first() -> None:
        async with window:
            await asyncio.sleep(0.001)
        await window.sends_first()
        events.append("first decodes")

    async def on_the_wire() -> None:
        events.append("second sends")
        await asyncio.sleep(0.001)

    async def second() -> None:
        async with window:
            if send_from_own_task:
                await asyncio.create_task(on_the_wire())  # as a single flight sends a read
            else:
                await on_the_wire()

    await asyncio.gather(first(), second())
    return events


async def test_a_freed_slot_carries_the_next_request_out_before_the_answer_is_decoded():
    assert await hand_over_the_only_slot(send_from_own_task=False) == ["second sends", "first decodes"]


async def test_a_request_sent_from_a_task_of_its_own_still_goes_out_before_the_decode():
    assert await hand_over_the_only_slot(send_from_own_task=True) == ["second sends", "first decodes"]


async def test_a_request_cancelled_as_its_slot_arrives_passes_the_slot_on():
    window = SendWindow(1)
    holder_release = asyncio.Event()
    started: list[str] = []

    async def holder() -> None:
        async with window:
            await holder_release.wait()
        await window.sends_first()

    async def waiter(name: str) -> None:
        async with window:
            started.append(name)

    hold = asyncio.create_task(holder())
    await asyncio.sleep(0)
    doomed = asyncio.create_task(waiter("doomed"))
    heir = asyncio.create_task(waiter("heir"))
    await asyncio.sleep(0)
    holder_release.set()
    await asyncio.sleep(0)  # the holder leaves: its slot is handed to "doomed"...
    doomed.cancel()  # ...which is cancelled before it can resume
    await asyncio.wait_for(asyncio.gather(hold, heir), 1)
    assert doomed.cancelled() and started == ["heir"]
    async with window:  # and the slot came back: the window is whole again
        pass


async def test_a_request_cancelled_while_queued_leaves_its_place():
    window = SendWindow(1)
    started: list[str] = []

    async def waiter(name: str) -> None:
        async with window:
            started.append(name)
            await asyncio.sleep(0.001)

    first = asyncio.create_task(waiter("first"))
    await asyncio.sleep(0)
    queued = asyncio.create_task(waiter("queued"))
    last = asyncio.create_task(waiter("last"))
    await asyncio.sleep(0)
    queued.cancel()
    await asyncio.wait_for(asyncio.gather(first, last), 1)
    assert started == ["first", "last"]
    await asyncio.wait_for(window.sends_first(), 1)
