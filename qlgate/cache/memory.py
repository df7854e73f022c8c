"""The embedded backend: an in-process LRU bounded by bytes (config
``cache.maxBytes``, 64 MiB by default), one per engine. Entries past their
freshness and any stale-while-revalidate window are dropped when met."""

from __future__ import annotations

import time
from collections import OrderedDict

from .entry import Entry


class MemoryBackend:
    name = "memory"

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, tuple[Entry, float]] = OrderedDict()  # key → (entry, drop at)
        self.bytes = 0

    async def get(self, key: str) -> Entry | None:
        item = self._entries.get(key)
        if item is None:
            return None
        entry, drop_at = item
        if time.time() >= drop_at:
            self._remove(key)
            return None
        self._entries.move_to_end(key)
        return entry

    async def set(self, key: str, entry: Entry, keep_s: float) -> None:
        size = entry.size
        if size > self.max_bytes or keep_s <= 0:
            return
        if key in self._entries:
            self._remove(key)
        self._entries[key] = (entry, time.time() + keep_s)
        self.bytes += size
        while self.bytes > self.max_bytes and self._entries:
            oldest = next(iter(self._entries))
            self._remove(oldest)

    def _remove(self, key: str) -> None:
        entry, _ = self._entries.pop(key)
        self.bytes -= entry.size

    async def lock(self, key: str, ms: int) -> str | None:
        return "local"  # one process: single flight already makes one call

    async def unlock(self, key: str, token: str) -> None:
        return None

    async def close(self) -> None:
        self._entries.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)
