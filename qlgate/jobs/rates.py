"""Call-rate limits per type (guarantee 7): at most N upstream calls per second,
or per day for daily API quotas, across every job of the type.

A window (one second, or one UTC day) has a budget of N call tokens. Runs
spend tokens locally; when a process has none left for the current window it
leases a batch from the shared store — ZooKeeper (compare-and-set on the
window's znode, as ids are taken) or, for the embedded backend, memory — and
waits for the next window when the budget is spent. So no upstream call waits
on ZooKeeper except the one that takes a new batch, and the total never
exceeds the budget, however many workers spend it."""

from __future__ import annotations

import asyncio
import math
import re
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Protocol

from .model import JobError, type_of_table

PERIODS = {"second": 1.0, "day": 86400.0}
MAX_CALLS = 1_000_000_000      # a window's budget (stored as a SQLite integer and in ZooKeeper)


@dataclass(frozen=True)
class Rate:
    calls: int
    per: str                     # "second" | "day"

    def __post_init__(self) -> None:
        if not isinstance(self.per, str) or self.per not in PERIODS:
            raise JobError(f"a rate is per second or per day, not per {self.per!r}")
        if (not isinstance(self.calls, int) or isinstance(self.calls, bool)
                or not 0 <= self.calls <= MAX_CALLS):
            raise JobError(f"a rate is a whole number of calls from 0 to {MAX_CALLS:,}, not {self.calls!r}")

    def window(self, now: float) -> str:
        """The window ``now`` falls in: an epoch second, or a UTC date."""
        if self.per == "second":
            return str(int(now))
        return datetime.fromtimestamp(now, timezone.utc).strftime("%Y-%m-%d")

    def window_end(self, now: float) -> float:
        period = PERIODS[self.per]
        return (math.floor(now / period) + 1) * period

    @property
    def batch(self) -> int:
        """Tokens leased at a time: enough to spare the store, few enough to share."""
        return max(1, self.calls // 10)

    def to_dict(self) -> dict:
        return {"calls": self.calls, "per": self.per}

    @classmethod
    def from_json(cls, value) -> "Rate | None":
        """A rate as HTTP bodies give it: ``"20/s"``, ``{"calls": 20, "per": "second"}``, or null (none)."""
        if value is None:
            return None
        if isinstance(value, dict):
            return cls(value.get("calls"), value.get("per", "second"))
        return cls.parse(str(value))

    @classmethod
    def parse(cls, text: str) -> "Rate":
        """``20/s``, ``20/second``, ``5000/day``."""
        calls, _, per = text.partition("/")
        per = {"s": "second", "sec": "second", "d": "day"}.get(per.strip(), per.strip())
        if not re.fullmatch(r"[0-9]{1,30}", calls.strip()):      # digits only: no "1_000", no 5,000-digit text
            raise JobError(f"a rate looks like 20/s or 5000/day, not {text[:100]!r}")
        return cls(int(calls), per)


class TokenStore(Protocol):
    def rate(self, job_type: str) -> Rate | None: ...
    def lease(self, job_type: str, rate: Rate, window: str, count: int) -> int: ...
    def give_back(self, job_type: str, window: str, count: int) -> None: ...


class CallGate:
    """What a run awaits before each upstream call: a token of the call's type."""

    def __init__(self, store: TokenStore, *, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock
        self._held: dict[tuple[str, str], int] = {}      # (type, window) → tokens in hand
        self._lock = threading.Lock()

    async def __call__(self, table: str) -> None:
        job_type = type_of_table(table)
        while True:
            rate = self.store.rate(job_type)
            if rate is None:
                return
            now = self.clock()
            window = rate.window(now)
            if self._spend(job_type, window):
                return
            got = await asyncio.to_thread(self.store.lease, job_type, rate, window, rate.batch)
            if got:
                with self._lock:
                    key = (job_type, window)
                    self._held[key] = self._held.get(key, 0) + got
                continue
            await asyncio.sleep(max(0.0, rate.window_end(now) - self.clock()) + 0.001)

    def _spend(self, job_type: str, window: str) -> bool:
        with self._lock:
            key = (job_type, window)
            left = self._held.get(key, 0)
            if left <= 0:
                return False
            self._held[key] = left - 1
            return True

    def give_back(self) -> None:
        """Unspent tokens of windows still open go back for others to use."""
        with self._lock:
            held, self._held = self._held, {}
        for (job_type, window), count in held.items():
            if count > 0:
                self.store.give_back(job_type, window, count)


class MemoryTokens:
    """Token store of the embedded backend (one process)."""

    def __init__(self) -> None:
        self.rates: dict[str, Rate] = {}
        self._left: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def rate(self, job_type: str) -> Rate | None:
        return self.rates.get(job_type)

    def lease(self, job_type: str, rate: Rate, window: str, count: int) -> int:
        with self._lock:
            for key in [k for k in self._left if k[0] == job_type and k[1] != window]:
                del self._left[key]                     # past windows
            left = self._left.setdefault((job_type, window), rate.calls)
            got = min(left, count)
            self._left[(job_type, window)] = left - got
            return got

    def give_back(self, job_type: str, window: str, count: int) -> None:
        with self._lock:
            if (job_type, window) in self._left:
                self._left[(job_type, window)] += count
