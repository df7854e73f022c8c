"""What one connection may take of a gateway process, and for how long.

A process serves many clients, some slow, some hostile. Each connection has
a deadline for the request under way (``READ_TIMEOUT_S`` from its first byte
to its last, body included) and for idling between requests; the process
caps how many connections it holds (``gateway.maxConnections``; those beyond
get a 503 and are closed) and how many bytes of request heads it holds at
once across all of them (``gateway.maxHeadBytes``): 300 clients that each
send most of a maximum head and stop would otherwise hold hundreds of
megabytes between them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ..timers import EARLY_S, Scheduled, board

READ_TIMEOUT_S = 30.0  # from a request's first byte to its last
IDLE_TIMEOUT_S = 75.0  # a keep-alive connection with no request under way
LINGER_S = 10.0  # closing a connection: how long the client's unread bytes are read and dropped
LINGER_BYTES = 1 << 20  # and how many at most


class HeadBudget:
    """Bytes of request heads (request lines and header fields) being read at once,
    across every connection of the process."""

    __slots__ = ("held", "limit", "refused")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self.refused = 0  # heads turned away for want of room, since start

    def take(self, size: int) -> bool:
        if self.held + size > self.limit:
            self.refused += 1
            return False
        self.held += size
        return True

    def give_back(self, size: int) -> None:
        self.held = max(0, self.held - size)


class ConnectionTimer:
    """One connection's deadline on the loop's timer board (``timers.py``), moved
    lazily: a later deadline is only noted (the timer, firing early, waits for the
    rest); an earlier one moves the timer."""

    __slots__ = ("_board", "_deadline", "_loop", "_on_timeout", "_scheduled")

    def __init__(self, loop: asyncio.AbstractEventLoop, on_timeout: Callable[[], None]) -> None:
        self._loop = loop
        self._board = board(loop)
        self._on_timeout = on_timeout
        self._scheduled: Scheduled | None = None
        self._deadline: float | None = None

    def set(self, seconds: float) -> None:
        """Time out ``seconds`` from now."""
        deadline = self._deadline = self._loop.time() + seconds
        scheduled = self._scheduled
        if scheduled is not None and scheduled.when > deadline:
            scheduled.cancel()
            scheduled = None
        if scheduled is None:
            self._scheduled = self._board.at(deadline, self._check)

    def cancel(self) -> None:
        """No deadline for now (the timer, if one runs, finds none and stops)."""
        self._deadline = None

    def stop(self) -> None:
        self._deadline = None
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._scheduled = None

    def after(self, seconds: float, callback: Callable[[], None]) -> None:
        """Call ``callback`` in ``seconds`` instead of timing out (a closing connection's linger)."""
        self.stop()
        self._scheduled = self._board.later(seconds, callback)

    def _check(self) -> None:
        self._scheduled = None
        if self._deadline is None:
            return
        if self._loop.time() < self._deadline - EARLY_S:  # the board fires up to EARLY_S early
            self._scheduled = self._board.at(self._deadline, self._check)
            return
        self._deadline = None
        self._on_timeout()
