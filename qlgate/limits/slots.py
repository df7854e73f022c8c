"""The arithmetic of per-second call rates: calls are spaced in time slots, so
that a rate of N calls per second holds in *every* one-second window, not only
in each epoch second.

Counting calls per epoch second lets a sliding window see 2N: a batch spent
at the end of one second and another at the start of the next. Instead the
shared store hands out time slots (generic cell rate algorithm, "virtual
scheduling"). It keeps one number per type, the time of the next free slot. A
lease of k tokens reserves the k slots ``start, start + T, …, start + (k-1)·T``
with ``start = max(next, now)`` and moves ``next`` to ``start + k·T``. The
token of slot ``s`` may be spent only in ``[s, s + g)``; a call that would go
out later loses its slot, and slots nobody spends expire. ``next`` only grows
and a lease begins where the one before ended, so any two slots of a type are
at least ``T`` apart, whichever processes leased them.

Why no window holds more than N: a spend in ``[t, t + 1)`` belongs to a slot in
the open interval ``(t - g, t + 1)``, 1 + g long. Points at least T apart in an
open interval of that length number fewer than (1 + g)/T + 1; with

    T = (1 + g) / N        (rounded up to a whole nanosecond)

that is at most N. The price is throughput: with enough demand to spend every
slot, a type gets N/(1 + g) calls a second. Here ``g`` = GRACE_NS = 50 ms, so
N/1.05 ≈ 95.2% of N (20/s → 19.05/s). Slots that expire unspent cost more:
a lease is sized to the calls waiting in the process (plus a tenth of a second
of its recent use), so few do.

Which clock: the store's. In memory (one process) it is ``time.monotonic_ns``.
In ZooKeeper it is the leader's wall clock as ZooKeeper stamps writes
(``stat.mtime``); each process bounds its offset to it from its own writes (see
``clock.py``) and narrows its spending window by the uncertainty, so the
clocks of the workers' hosts never matter.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

GRACE_NS = 50_000_000  # g: how long after its time a slot may still be spent
SECOND_NS = 1_000_000_000


def spacing_ns(calls: int) -> int:
    """T for a rate of ``calls`` per second, rounded up: rounding down could let N + 1 in."""
    return -(-(SECOND_NS + GRACE_NS) // calls)


def promised_share() -> float:
    """The share of N a type gets when every slot is spent: 1/(1 + g)."""
    return SECOND_NS / (SECOND_NS + GRACE_NS)


@dataclass(frozen=True)
class Slots:
    """A lease of ``count`` slots, ``spacing`` ns apart from ``start`` — times in the
    store's clock, which is what handing the unspent tail back needs. ``shift`` and
    ``spendable`` say when in this process's ``time.monotonic_ns()`` a slot may be
    spent: slot i in ``[start + i·spacing + shift, … + spendable)``. A store whose
    clock is not this process's makes ``spendable`` shorter than the grace by the
    uncertainty of the conversion."""

    start: int
    spacing: int
    count: int
    shift: int = 0
    spendable: int = GRACE_NS

    @property
    def end(self) -> int:
        """Where the store's next lease begins, unless someone else leased since."""
        return self.start + self.count * self.spacing

    def at(self, index: int) -> int:
        """Slot ``index`` in the store's clock."""
        return self.start + index * self.spacing

    def opens(self, index: int) -> int:
        """The first moment (this process's monotonic ns) slot ``index`` may be spent."""
        return self.at(index) + self.shift


def reserve(next_free: int, now: int, calls: int, count: int) -> Slots:
    """``count`` slots from the first free one that is not in the past (store clock)."""
    return Slots(max(next_free, now), spacing_ns(calls), count)


def busiest_window(times: Iterable[float], width: float = 1.0) -> int:
    """The most calls any half-open window ``[t, t + width)`` holds — what a partner
    counting a sliding window sees. The busiest window can always be moved to
    begin at a call, so every call is tried as a start."""
    ordered = sorted(times)
    most, end = 0, 0
    for first, t in enumerate(ordered):
        while end < len(ordered) and ordered[end] < t + width:
            end += 1
        most = max(most, end - first)
    return most


def lease_size(waiting: int, recent: int, share: float, cap: int) -> int:
    """How many tokens to lease: the calls waiting now, or ``share`` of the calls of the
    last second if that is more (a steady caller then takes one lease for a few
    calls), never more than ``cap`` nor less than one."""
    return max(1, min(cap, max(waiting, math.ceil(recent * share))))
