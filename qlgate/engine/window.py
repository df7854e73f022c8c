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
"""

from __future__ import annotations

import asyncio
from collections import deque


class SendWindow:
    def __init__(self, size: int):
        self._free = size
        self._queue: deque[asyncio.Future] = deque()  # requests waiting for a slot
        self._handed = 0  # slots handed to a waiting request that has not resumed yet
        self._caught_up: asyncio.Future | None = None

    async def __aenter__(self) -> None:
        if self._free and not self._queue:
            self._free -= 1
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

    async def __aexit__(self, *exc: object) -> None:
        self._release()

    async def sends_first(self) -> None:
        """Return once no freed slot is still waiting for its request to go out."""
        while self._handed:
            if self._caught_up is None:
                self._caught_up = asyncio.get_running_loop().create_future()
            await asyncio.shield(self._caught_up)

    def _release(self) -> None:
        while self._queue:
            slot = self._queue.popleft()
            if not slot.done():
                self._handed += 1
                slot.set_result(None)
                return
        self._free += 1

    def _note_handed(self) -> None:
        # the resumed request sends before it next yields, so by the time the
        # decoders woken here run, its request is on the wire
        if self._handed == 0 and self._caught_up is not None:
            self._caught_up.set_result(None)
            self._caught_up = None
