"""The send window of a fan-out: at most ``size`` of its requests in flight, and
sends before decoding.

Decoding an answer (JSON or XML, result set, projection) takes CPU: tens of
microseconds for a small JSON answer, milliseconds for a large XML one. When
answers arrive faster than they can be handled, as when the first wave of a
fan-out comes back, decoding each as it came would put every decode between an
answer freeing a slot and the next request taking it. So a request that got its
answer waits, before decoding, until each slot freed so far has carried its
next request out. Decodes then fill the time the window spends waiting on the
network, not the time between two sends.

A request that resumes with its slot does not put itself on the wire in that
turn of the loop: a read goes out from the task of its single flight
(``cache/flight.py``), which starts a turn later. So the decoders are woken a
turn after the last slot was taken, behind that task, not beside it; and a
request that finds no slot free is not even built until the requests that have
one have gone out (``TableCall``). Counting turns holds for the common read: a
memory cache, no back-off, no limit to wait for, a kept-alive connection. Where
the send waits on something first (a Redis cache's lookup or lock, a back-off, a
limit, a new connection), decoders may run in that wait, as they could before:
the order is a matter of speed only, never of what is sent or answered.
"""

from __future__ import annotations

import asyncio
from collections import deque


class SendWindow:
    def __init__(self, size: int):
        self._free = size
        self._queue: deque[asyncio.Future] = deque()  # requests waiting for a slot
        self._handed = 0  # slots handed to a waiting request that has not resumed yet
        self._catching_up: list[asyncio.Future] = []  # decoders waiting in ``sends_first``
        self._wake_queued = False  # a ``_wake_decoders`` is scheduled

    @property
    def full(self) -> bool:
        """Would a request have to wait for a slot now?"""
        return not self._free or bool(self._queue)

    def enter_now(self) -> bool:
        """Take a slot if one is free at once (no coroutine for the common case)."""
        if self._free and not self._queue:
            self._free -= 1
            return True
        return False

    async def enter(self) -> None:
        """Wait for a slot (``enter_now`` found none)."""
        if self.enter_now():
            return
        slot = asyncio.get_running_loop().create_future()
        self._queue.append(slot)
        try:
            await slot
        except asyncio.CancelledError:
            if slot.cancelled():
                if slot in self._queue:
                    self._queue.remove(slot)
            else:  # the slot came with the cancellation: pass it on
                self._handed -= 1
                self._release()
                self._note_handed()
            raise
        self._handed -= 1
        self._note_handed()

    def release(self) -> None:
        """Give the slot back: to the request waiting longest, else to the window."""
        self._release()

    @property
    def behind(self) -> bool:
        """Has a freed slot not yet carried its request out (``sends_first`` would wait)?"""
        return bool(self._handed)

    async def __aenter__(self) -> None:
        if not self.enter_now():
            await self.enter()

    async def __aexit__(self, *exc: object) -> None:
        self._release()

    async def sends_first(self) -> None:
        """Return once no freed slot is still waiting for its request to go out."""
        while self._handed:
            # a future of its own (not a shield over a shared one): one cancelled waiter
            # cancels only itself
            waiter = asyncio.get_running_loop().create_future()
            self._catching_up.append(waiter)
            await waiter

    def _release(self) -> None:
        while self._queue:
            slot = self._queue.popleft()
            if not slot.done():
                self._handed += 1
                slot.set_result(None)
                return
        self._free += 1

    def _note_handed(self) -> None:
        # the resumed request's single-flight task, which sends it, starts in the next
        # turn: waking the decoders from a callback of that turn queues them behind it
        if self._handed == 0 and self._catching_up and not self._wake_queued:
            self._wake_queued = True
            asyncio.get_running_loop().call_soon(self._wake_decoders)

    def _wake_decoders(self) -> None:
        self._wake_queued = False
        if self._handed:  # another slot was handed on meanwhile: its request goes first
            return
        waiting, self._catching_up = self._catching_up, []
        for waiter in waiting:
            if not waiter.done():
                waiter.set_result(None)
