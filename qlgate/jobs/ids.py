"""Job and run ids from an ID-range allocator (issue 5, guarantee 6).

The free ids of a category live in one znode as ranges, ``"a:b,c:d"`` (each
half-open, ``a <= id < b``). A process takes a batch from the lowest range by
compare-and-set on the znode's version, hands ids out locally with no
ZooKeeper round trip, and pushes what it did not use back, where it is
merged in order — so freed ids are handed out again, lowest first. Two
processes can never write over each other: a stale version fails and retries.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass

from kazoo.client import KazooClient
from kazoo.exceptions import BadVersionError, NodeExistsError, NoNodeError

from ..errors import QlError

IDS_ROOT = "/qlgate/ids"
DEFAULT_SPACE = 2**53 - 1  # ids stay exact as JSON numbers


class IdSpaceExhausted(QlError):
    """Every id of the category has been handed out."""

    status = 503

    def __init__(self, category: str):
        super().__init__(f"the id space of '{category}' is exhausted")
        self.category = category


class IdRangeConflict(QlError, ValueError):
    """A range given back overlaps free ids: it was never handed out, or was given back twice."""


Range = tuple[int, int]


def parse_ranges(text: str) -> list[Range]:
    ranges = []
    for part in filter(None, text.split(",")):
        start, _, end = part.partition(":")
        ranges.append((int(start), int(end)))
    return ranges


def format_ranges(ranges: list[Range]) -> str:
    return ",".join(f"{a}:{b}" for a, b in ranges)


def take(ranges: list[Range], count: int) -> tuple[Range | None, list[Range]]:
    """Up to ``count`` ids from the lowest free range: (taken, what stays free)."""
    if not ranges:
        return None, ranges
    start, end = ranges[0]
    stop = min(end, start + count)
    rest = ([(stop, end)] if stop < end else []) + ranges[1:]
    return (start, stop), rest


def give_back(ranges: list[Range], returned: Range) -> list[Range]:
    """``ranges`` with ``returned`` merged in, sorted and coalesced."""
    start, end = returned
    if start >= end:
        return ranges
    merged: list[Range] = []
    placed = False
    for a, b in ranges:
        if a < end and start < b:
            raise IdRangeConflict(f"ids {start}:{end} overlap the free range {a}:{b}")
        if not placed and end <= a:
            merged.append((start, end))
            placed = True
        merged.append((a, b))
    if not placed:
        merged.append((start, end))
    out: list[Range] = []
    for a, b in merged:
        if out and out[-1][1] == a:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


class RangeStore:
    """The free ranges of one category in ZooKeeper, changed only by compare-and-set."""

    def __init__(
        self, client: KazooClient, category: str, *, space: int = DEFAULT_SPACE, first: int = 1, root: str = IDS_ROOT
    ):
        self.client = client
        self.category = category
        self.path = f"{root}/{category}"
        self.space = (first, space + 1)
        self.conflicts = 0  # lost compare-and-sets, for the benchmark's curiosity

    def _read(self) -> tuple[list[Range], int]:
        while True:
            try:
                data, stat = self.client.get(self.path)
                return parse_ranges(data.decode()), stat.version
            except NoNodeError:
                try:
                    self.client.create(self.path, format_ranges([self.space]).encode(), makepath=True)
                except NodeExistsError:
                    pass

    def _update(self, change) -> Range | None:
        """Apply ``change(ranges) -> (result, new ranges)`` atomically; retry with jitter on a race."""
        attempt = 0
        while True:
            ranges, version = self._read()
            result, new = change(ranges)
            try:
                self.client.set(self.path, format_ranges(new).encode(), version=version)
                return result
            except BadVersionError:
                self.conflicts += 1
                attempt += 1
                time.sleep(random.uniform(0, min(0.05, 0.0005 * 2**attempt)))

    def take(self, count: int) -> Range:
        taken = self._update(lambda ranges: take(ranges, count))
        if taken is None:
            raise IdSpaceExhausted(self.category)
        return taken

    def give_back(self, returned: Range) -> None:
        if returned[0] < returned[1]:
            self._update(lambda ranges: (None, give_back(ranges, returned)))


@dataclass
class _Batch:
    next: int = 0
    end: int = 0


class IdAllocator:
    """Hands out ids of one category, taking them from ZooKeeper ``batch`` at a time.

    Thread-safe. ``close()`` (or leaving the ``with`` block) gives the unused
    rest of the current batch back; a process that dies without doing so
    loses at most one batch of ids, never hands one out twice.
    """

    def __init__(
        self,
        client: KazooClient,
        category: str,
        *,
        batch: int = 1000,
        space: int = DEFAULT_SPACE,
        first: int = 1,
        root: str = IDS_ROOT,
    ):
        self.store = RangeStore(client, category, space=space, first=first, root=root)
        self.batch_size = batch
        self._batch = _Batch()
        self._lock = threading.Lock()

    def next_id(self) -> int:
        with self._lock:
            batch = self._batch
            if batch.next >= batch.end:
                batch.next, batch.end = self.store.take(self.batch_size)
            value = batch.next
            batch.next += 1
            return value

    def take(self, count: int) -> list[int]:
        """``count`` ids at once (fewer round trips than ``next_id`` in a loop)."""
        out: list[int] = []
        with self._lock:
            batch = self._batch
            while len(out) < count:
                if batch.next >= batch.end:
                    batch.next, batch.end = self.store.take(max(self.batch_size, count - len(out)))
                stop = min(batch.end, batch.next + count - len(out))
                out.extend(range(batch.next, stop))
                batch.next = stop
        return out

    def close(self) -> None:
        with self._lock:
            batch = self._batch
            unused = (batch.next, batch.end)
            batch.next = batch.end = 0
        self.store.give_back(unused)

    def __enter__(self) -> IdAllocator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
