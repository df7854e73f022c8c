"""The response cache (spec §10.9, issue 17), as the engine's call path uses it
(``engine/call_steps.py``): a cached answer when the call's table or statement
says ``expires`` and the backend has a fresh one (or a stale one, renewed in the
background); on Redis, one fetch per deployment while a short lock is held; the
answer stored when it is a 2xx (or a 404, with ``cache.negative``). It also holds
the process's single flight (``flight.py``), which every shared read goes
through, cached or not.

The cache never fails a statement: a backend error is a miss, logged at WARNING
at most once per ``WARN_EVERY_S`` seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, Protocol

from .entry import Entry, copy_response
from .flight import SingleFlight
from .memory import MemoryBackend
from .redis_backend import CacheUnavailable, RedisBackend
from .settings import CacheSettings

if TYPE_CHECKING:
    from ..config_values import ConfigView
    from ..http.client import HttpResponse

log = logging.getLogger("qlgate.cache")
WARN_EVERY_S = 30.0
POLL_S = 0.02

Source = Literal["sent", "cache", "stale", "coalesced"]
Fetched = tuple["HttpResponse", Source]


class Backend(Protocol):
    name: str

    async def get(self, key: str) -> Entry | None: ...
    async def set(self, key: str, entry: Entry, keep_s: float) -> None: ...
    async def lock(self, key: str, ms: int) -> str | None: ...
    async def unlock(self, key: str, token: str) -> None: ...
    async def close(self) -> None: ...


@dataclass(slots=True)
class CachePlan:
    """What one request may do with the cache, decided by its table call. Not changed
    once made (not frozen: a frozen dataclass's ``__init__`` costs twice as much, and
    one is made per read)."""

    # the cache key (also the single-flight key): a SHA-256 text; a tuple when the answer
    # is not to be stored (``keys.StatementKeys.flight_keyed``, never leaves the process)
    key: str | tuple
    expires: int | None  # seconds its answer may be kept (table's or statement's ``expires``), None: not cached
    storable: bool = True  # False: it carried a caller's credential (``keys.caller_credentials``)
    occurrence: int = 0  # the n-th identical request of one statement (a patch's scatter): calls of its own
    # masks the config's secrets out of the URL an entry keeps (``Secrets.mask``)
    mask: Callable[[str], str] | None = field(default=None, compare=False)
    # seconds an answer it fetches is stored for, when not ``expires``: the table's own, so that
    # a statement's shorter ``expires`` bounds what it reads without shortening the entry for all
    keep: int | None = None

    @property
    def stored_key(self) -> str:
        """The key under which a backend keeps the answer: only a plan that may be
        stored (``expires``) has one, and it is always the hashed text."""
        if not isinstance(self.key, str):
            raise TypeError("a plan keyed for single flight only has no stored key")
        return self.key


class ResponseCache:
    def __init__(self, settings: CacheSettings | None = None, backend: Backend | None = None):
        self.settings = settings or CacheSettings()
        if backend is None and self.settings.backend == "memory":
            backend = MemoryBackend(self.settings.max_bytes)
        elif backend is None and self.settings.backend == "redis" and self.settings.url:
            backend = RedisBackend(self.settings.url, self.settings.prefix)
        self.backend = backend
        # the process's one single flight: identical reads in flight share one call, cached or not
        self.flights: SingleFlight[Fetched] = SingleFlight(lambda r: (copy_response(r[0]), r[1]))
        self._refreshing: set[asyncio.Future[Any]] = set()
        self._warned_at = -WARN_EVERY_S
        self._suppressed = 0

    @classmethod
    def from_config(cls, data: dict[str, Any] | ConfigView) -> ResponseCache:
        return cls(CacheSettings.from_config(data))

    def caching(self, plan: CachePlan) -> bool:
        """May this read's answer come from, and go to, the cache (its table or statement
        says ``expires``, it carries no caller's credential, a backend is configured)?"""
        return bool(plan.expires) and plan.storable and self.backend is not None

    async def lookup(self, plan: CachePlan) -> Fetched | None:
        """A fresh answer (``cache``) or, within ``staleWhileRevalidate``, a stale one
        (``stale``: the caller renews it in the background, ``refresh``); None: a miss."""
        entry = await self._get(plan.stored_key)
        if entry is None:
            return None
        now, fresh_until = time.time(), _fresh_for(entry, plan)
        if now < fresh_until:
            return entry.response(), "cache"
        if now < fresh_until + self.settings.stale_while_revalidate:
            return entry.response(), "stale"
        return None

    async def lock(self, plan: CachePlan) -> tuple[bool, str | None]:
        """May this process fetch the answer now, and the lock to give back after
        (``unlock``)? On Redis one host per deployment fetches while a short lock is
        held; False: another host holds it (wait for its entry, ``wait_for``)."""
        backend = self.backend
        if backend is None or backend.name == "memory":
            return True, None
        try:
            token = await backend.lock(plan.stored_key, self.settings.lock_ms)
        except CacheUnavailable as e:
            self._warn(str(e))
            return True, None
        return token is not None, token

    async def unlock(self, plan: CachePlan, token: str) -> None:
        if self.backend is not None:
            try:
                await self.backend.unlock(plan.stored_key, token)
            except CacheUnavailable as e:
                self._warn(str(e))

    async def wait_for(self, plan: CachePlan) -> HttpResponse | None:
        """The answer another host is fetching, once it has stored it (a while at most)."""
        entry = await self._wait_for(plan)
        return entry.response() if entry is not None else None

    async def _wait_for(self, plan: CachePlan) -> Entry | None:
        deadline = time.monotonic() + self.settings.wait_ms / 1000
        while time.monotonic() < deadline:
            await asyncio.sleep(POLL_S)
            entry = await self._get(plan.stored_key)
            if entry is not None and time.time() < _fresh_for(entry, plan):
                return entry
        return None

    async def store(self, plan: CachePlan, response: HttpResponse) -> None:
        if 200 <= response.status <= 299:
            ttl = plan.keep or plan.expires or 0
        elif response.status == 404 and self.settings.negative:
            ttl = self.settings.negative
        else:
            return
        if ttl <= 0 or self.backend is None:
            return
        entry = Entry.of(response, time.time(), ttl, mask=plan.mask)
        try:
            await self.backend.set(plan.stored_key, entry, ttl + self.settings.stale_while_revalidate)
        except CacheUnavailable as e:
            self._warn(str(e))

    async def _get(self, key: str) -> Entry | None:
        if self.backend is None:
            return None
        try:
            return await self.backend.get(key)
        except CacheUnavailable as e:
            self._warn(str(e))
            return None

    def refresh(self, plan: CachePlan, send: Callable[[], Awaitable[HttpResponse]]) -> None:
        """Stale-while-revalidate: one background call renews the entry (none if a call
        for it is in flight already)."""
        key = (plan.key, plan.occurrence)
        if key in self.flights:
            return
        task = asyncio.ensure_future(self.flights.run(key, partial(self._renew, plan, send)))
        self._refreshing.add(task)
        task.add_done_callback(self._refreshed)

    async def _renew(self, plan: CachePlan, send: Callable[[], Awaitable[HttpResponse]]) -> Fetched:
        response = await send()
        await self.store(plan, response)
        return response, "sent"

    def _refreshed(self, task: asyncio.Future[Any]) -> None:
        self._refreshing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.info("stale-while-revalidate refresh failed: %s", task.exception())

    def _warn(self, message: str) -> None:
        now = time.monotonic()
        if now - self._warned_at < WARN_EVERY_S:
            self._suppressed += 1
            return
        more = f" ({self._suppressed} more since the last warning)" if self._suppressed else ""
        log.warning("response cache unavailable, calls go upstream: %s%s", message, more)
        self._warned_at, self._suppressed = now, 0

    async def close(self) -> None:
        for task in list(self._refreshing):
            task.cancel()
        if self.backend is not None:
            await self.backend.close()


def _fresh_for(entry: Entry, plan: CachePlan) -> float:
    """Until when ``entry`` is fresh for this reader: the writer's ``expires`` or the
    reader's, whichever ends first (a statement that says ``expires 5`` reads no answer
    older than 5 s, whichever table or statement stored it for a day)."""
    return min(entry.fresh_until, entry.stored_at + (plan.expires or 0))
