"""The facade the engine sends reads through (spec §10.9, issue 17): a cached
answer when the call's table or statement says ``expires`` and the backend has
a fresh one; else one upstream call per key in flight in this process (single
flight), and, on Redis, one per deployment while a short lock is held; the
answer stored when it is a 2xx (or a 404, with ``cache.negative``).

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
from .keys import IDEMPOTENT
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
        self.flight: SingleFlight[Fetched] = SingleFlight(lambda r: (copy_response(r[0]), r[1]))
        self._refreshing: set[asyncio.Future[Any]] = set()
        self._warned_at = -WARN_EVERY_S
        self._suppressed = 0

    @classmethod
    def from_config(cls, data: dict[str, Any] | ConfigView) -> ResponseCache:
        return cls(CacheSettings.from_config(data))

    async def fetch(self, plan: CachePlan, method: str, send: Callable[[], Awaitable[HttpResponse]]) -> Fetched:
        """The answer to a request and where it came from. ``send`` makes the upstream
        call (and accounts for it); it is called at most once per key in flight."""
        if method.upper() not in IDEMPOTENT:
            return await send(), "sent"  # a write is never shared, never stored
        if not plan.storable:
            # it carries a caller's own credential: never shared with another run, either way
            return await send(), "sent"
        caching = bool(plan.expires) and plan.storable and self.backend is not None
        if caching:
            entry = await self._get(plan.stored_key)
            if entry is not None:
                now, fresh_until = time.time(), _fresh_for(entry, plan)
                if now < fresh_until:
                    return entry.response(), "cache"
                if now < fresh_until + self.settings.stale_while_revalidate:
                    self._refresh(plan, send)
                    return entry.response(), "stale"
        # a partial, not a lambda: no closure cells made on every call of this method
        (response, source), shared = await self.flight.run(
            (plan.key, plan.occurrence), partial(self._fetch, plan, send, caching)
        )
        return response, "coalesced" if shared and source == "sent" else source

    async def _fetch(self, plan: CachePlan, send: Callable[[], Awaitable[HttpResponse]], caching: bool) -> Fetched:
        backend, settings = self.backend, self.settings
        token: str | None = None
        if caching and backend is not None and backend.name != "memory":
            try:
                token = await backend.lock(plan.stored_key, settings.lock_ms)
            except CacheUnavailable as e:
                self._warn(str(e))
                token = "none"
            if token is None:  # another host is fetching it: wait for its entry, a while
                entry = await self._wait_for(plan)
                if entry is not None:
                    return entry.response(), "cache"
        try:
            response = await send()
            if caching:
                await self._store(plan, response)
        finally:
            if token is not None and token != "none" and backend is not None:
                try:
                    await backend.unlock(plan.stored_key, token)
                except CacheUnavailable as e:
                    self._warn(str(e))
        return response, "sent"

    async def _wait_for(self, plan: CachePlan) -> Entry | None:
        deadline = time.monotonic() + self.settings.wait_ms / 1000
        while time.monotonic() < deadline:
            await asyncio.sleep(POLL_S)
            entry = await self._get(plan.stored_key)
            if entry is not None and time.time() < _fresh_for(entry, plan):
                return entry
        return None

    async def _store(self, plan: CachePlan, response: HttpResponse) -> None:
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

    def _refresh(self, plan: CachePlan, send: Callable[[], Awaitable[HttpResponse]]) -> None:
        """Stale-while-revalidate: one background call renews the entry."""
        if (plan.key, plan.occurrence) in self.flight:
            return
        task = asyncio.ensure_future(
            self.flight.run((plan.key, plan.occurrence), partial(self._fetch, plan, send, True))
        )
        self._refreshing.add(task)
        task.add_done_callback(self._refreshed)

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
