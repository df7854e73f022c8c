"""The metrics of ``serve --workers N``: one scrape must see every worker's counts,
but the port is shared (SO_REUSEPORT) and the kernel picks which worker answers.

How: each worker writes its snapshot (counts and process gauges, JSON) to
``worker-<index>.json`` in a directory the supervisor made before it forked,
once a second when something changed (an atomic rename, so a reader never
sees half a file); the worker that answers ``/metrics`` merges its own live
counts with the others' files. Why files rather than the parent scraping its
workers: the workers have no address of their own to be scraped at, and the
supervisor is kept to forking and waiting (``process.py``); why not shared
memory: labels come and go (tables, routes, statuses), which a fixed layout
cannot hold without a bound per label set. The cost is a second's staleness of
the other workers' counts, and one small write a second per busy worker — none
per request.

A worker started again in a dead one's place (same index) reads the file first
and continues from it, so the cluster's counters stay monotonic; its CPU
counter starts afresh, as a new process's does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import resource
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .gateway import Gateway
    from .metrics import Metrics

log = logging.getLogger("qlgate.server")

FLUSH_SECONDS = 1.0
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def process_stats(gateway: Gateway, worker: int) -> dict[str, Any]:
    """This process's gauges: CPU seconds, resident bytes, its memory cache's size."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    stats: dict[str, Any] = {
        "worker": worker,
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 3),
        "rss_bytes": _rss(usage),
    }
    backend = getattr(gateway.workspace.engine.responses, "backend", None)
    if backend is not None and getattr(backend, "name", "") == "memory":
        stats.update(cache_entries=len(backend), cache_bytes=backend.bytes, cache_max_bytes=backend.max_bytes)
    return stats


def _rss(usage: resource.struct_rusage) -> int:
    """Resident bytes now (Linux's statm), else the peak getrusage knows."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return usage.ru_maxrss * 1024


class MetricsShare:
    """One worker's side: writes its snapshot, reads the others' (see the module's doc)."""

    def __init__(self, directory: str, index: int, gateway: Gateway, metrics: Metrics):
        self.directory, self.index, self.gateway, self.metrics = Path(directory), index, gateway, metrics
        self.path = self.directory / f"worker-{index}.json"
        self._written = -1
        self._task: asyncio.Task[None] | None = None

    def resume(self) -> None:
        """Continue from this slot's last snapshot, when a worker had it before."""
        try:
            data = json.loads(self.path.read_bytes())
        except FileNotFoundError:
            return
        except (OSError, ValueError) as error:
            log.warning("metrics: %s unreadable, counting afresh: %s", self.path, error)
            return
        self.metrics.load(data.get("counts", {}))

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._flush_loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.flush(force=True)

    async def _flush_loop(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            ticks += 1
            self.flush(force=ticks % 15 == 0)  # an idle worker's CPU and memory, now and then

    def own_stats(self) -> dict[str, Any]:
        return process_stats(self.gateway, self.index)

    def flush(self, *, force: bool = False) -> None:
        """Write the snapshot, if anything changed since the last (the process gauges
        ride along; a worker with no traffic keeps its last ones)."""
        changes = self.metrics.changes
        if changes == self._written and not force:
            return
        data = {"counts": self.metrics.snapshot(), "stats": self.own_stats()}
        temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
        try:
            temporary.write_bytes(json.dumps(data, separators=(",", ":")).encode())
            os.replace(temporary, self.path)
        except OSError as error:  # a full or removed directory: the scrape shows less, serving goes on
            log.warning("metrics: cannot write %s: %s", self.path, error)
            return
        self._written = changes

    def others(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The other workers' last counts and process gauges."""
        counts, stats = [], []
        for path in sorted(self.directory.glob("worker-*.json")):
            if path == self.path:
                continue
            try:
                data = json.loads(path.read_bytes())
            except (OSError, ValueError):  # replaced between glob and read: next scrape
                continue
            counts.append(data.get("counts", {}))
            stats.append(data.get("stats", {}))
        return counts, stats
