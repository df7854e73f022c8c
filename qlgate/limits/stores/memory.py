"""The token store of one process (the embedded job backend's, tests' and
benchmarks'): a day's budget and the next free slot per API type, in memory,
with ZooKeeper's rules for opening days (``days_to_open``) so that gates whose
clocks differ behave as they do over ZooKeeper."""

from __future__ import annotations

import threading
import time

from ..rate import Rate, days_to_open
from ..slots import Slots, reserve


class MemoryTokens:
    """Token store of the embedded backend (one process)."""

    blocks = False  # a lock held for microseconds: no thread needed

    def __init__(self) -> None:
        self.rates: dict[str, Rate] = {}
        self._left: dict[tuple[str, str], int] = {}  # (type, day) → what is left of its budget
        self._calendars: dict[str, str] = {}  # type → the time zone its days are dates of
        self._next: dict[str, int] = {}  # type → its next free slot (time.monotonic_ns)
        self._lock = threading.Lock()

    def rate(self, job_type: str) -> Rate | None:
        return self.rates.get(job_type)

    def lease(self, job_type: str, rate: Rate, window: str, count: int) -> int:
        with self._lock:
            key = (job_type, window)
            if key not in self._left and not self._open_day(job_type, rate, window):
                return 0
            got = min(self._left[key], count)
            self._left[key] -= got
            return got

    def _open_day(self, job_type: str, rate: Rate, window: str) -> bool:
        """ZooKeeper's rules (``days_to_open``), for gates whose clocks differ."""
        zone = self._calendars.get(job_type)
        gone = days_to_open({day: zone or "" for (kind, day) in self._left if kind == job_type}, rate, window)
        if gone is None:
            return False
        for day in gone:
            del self._left[(job_type, day)]
        self._calendars[job_type] = rate.time_zone
        self._left[(job_type, window)] = rate.calls
        return True

    def give_back(self, job_type: str, window: str, count: int) -> None:
        with self._lock:
            if (job_type, window) in self._left:
                self._left[(job_type, window)] += count

    def lease_slots(self, job_type: str, rate: Rate, count: int) -> Slots:
        with self._lock:
            slots = reserve(self._next.get(job_type, 0), time.monotonic_ns(), rate.calls, count)
            self._next[job_type] = slots.end
            return slots

    def return_slots(self, job_type: str, slots: Slots, first_unspent: int) -> None:
        with self._lock:
            if self._next.get(job_type) == slots.end:
                self._next[job_type] = slots.at(first_unspent)
