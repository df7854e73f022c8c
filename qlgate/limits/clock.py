"""What a process knows of ZooKeeper's clock, so that workers on different
hosts can share time slots (``qlgate/limits/slots.py``) without trusting their
own wall clocks to agree.

Every write is stamped by the leader with its wall clock, in whole
milliseconds (``stat.mtime``): the write happened at server time in
``[mtime, mtime + 1 ms)`` and, in this process, between sending it and reading
the answer. So the offset ``server − local`` (local: ``time.monotonic_ns``)
lies in ``(mtime − received, mtime + 1 ms − sent)``: a bound one round trip
plus a millisecond wide, from any write. Bounds age: the two clocks may run
apart by DRIFT (NTP slews a clock by at most 500 ppm; two clocks, 1000 ppm),
so an old bound widens by DRIFT per second and each fresh one is intersected
with it. A slot's spending window in this process is narrowed by the width,
which keeps it inside the slot's window in server time.

What this does not cover: the leader's wall clock being stepped (not slewed),
or a new leader whose clock differs from the old one's by d. Either shifts
server time by d at once; slots leased before the jump are then spent up to d
off, which can let a window see up to d·N/(1 + g) extra calls until they are
gone (at most about a second: no process leases further ahead). A fresh
bound that contradicts the old one is taken as such a jump and replaces it.
ZooKeeper's servers are assumed NTP-synced (d of a few ms).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

MS = 1_000_000
DRIFT = 1e-3  # how fast two NTP-disciplined clocks may run apart, s per s


class ServerClock:
    def __init__(self, timer: Callable[[], int] = time.monotonic_ns):
        self.timer = timer
        self._lock = threading.Lock()
        self._bounds: tuple[int, int, int] | None = None  # (low, high, measured at local ns)

    def observe(self, mtime_ms: int, sent: int, received: int) -> None:
        """Learn from a write sent at ``sent`` and answered at ``received`` (local ns)."""
        low, high = mtime_ms * MS - received, (mtime_ms + 1) * MS - sent
        with self._lock:
            if self._bounds is not None:
                old_low, old_high = self._widened(received)
                if max(low, old_low) < min(high, old_high):  # consistent: keep the tighter of each
                    low, high = max(low, old_low), min(high, old_high)
            self._bounds = (low, high, received)

    def bounds(self, at: int | None = None) -> tuple[int, int] | None:
        """Offset bounds valid at local time ``at`` (now by default), or None if never measured."""
        with self._lock:
            if self._bounds is None:
                return None
            return self._widened(self.timer() if at is None else at)

    def _widened(self, at: int) -> tuple[int, int]:
        assert self._bounds is not None  # callers check under the lock
        low, high, measured = self._bounds
        slack = int(DRIFT * abs(at - measured)) + 1
        return low - slack, high + slack

    def width(self, at: int | None = None) -> int | None:
        bounds = self.bounds(at)
        return None if bounds is None else bounds[1] - bounds[0]

    def server_now(self) -> int:
        """Best guess of the server's time now (the middle of the bounds); measure first."""
        bounds = self.bounds()
        if bounds is None:
            raise RuntimeError("the server's clock has not been measured yet")
        low, high = bounds
        return self.timer() + (low + high) // 2
