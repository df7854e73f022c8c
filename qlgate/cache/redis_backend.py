"""The shared backend: Redis (``cache.url``), through ``redis``'s asyncio client,
so every process and host of a deployment answers a repeated request from one
upstream call. An entry is kept for its freshness plus any stale window (PX);
a short lock (SET NX PX) lets one host fetch while the others wait for the
entry. Every failure is raised as ``CacheUnavailable`` for the facade to log.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from .entry import Entry

_UNLOCK = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class CacheUnavailable(Exception):
    pass


class RedisBackend:
    name = "redis"

    def __init__(self, url: str, prefix: str, *, timeout_s: float = 0.5):
        from ..extras import require

        # imported here: the embedded default needs no Redis (the redis extra)
        aioredis = require("redis.asyncio", "redis", "the shared response cache (cache.url redis://…)")

        self.url = url
        self.prefix = prefix
        self.timeout_s = timeout_s
        self._redis = aioredis
        self._errors: tuple[type[BaseException], ...] = (aioredis.RedisError, OSError, TimeoutError)
        self._made: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def _client(self) -> Any:
        """One client per event loop (its connections belong to the loop that made them)."""
        loop = asyncio.get_running_loop()
        if self._made is None or self._loop is not loop:
            self._made = self._redis.from_url(
                self.url,
                socket_timeout=self.timeout_s,
                socket_connect_timeout=self.timeout_s,
                retry_on_timeout=False,
            )
            self._loop = loop
        return self._made

    async def get(self, key: str) -> Entry | None:
        try:
            data = await self._client.get(self.prefix + key)
        except self._errors as e:
            raise CacheUnavailable(f"redis get failed: {e}") from None
        if data is None:
            return None
        try:
            return Entry.loads(data)
        except (ValueError, KeyError, TypeError):
            return None  # written by another version: a miss

    async def set(self, key: str, entry: Entry, keep_s: float) -> None:
        ms = int(keep_s * 1000)
        if ms <= 0:
            return
        try:
            await self._client.set(self.prefix + key, entry.dumps(), px=ms)
        except self._errors as e:
            raise CacheUnavailable(f"redis set failed: {e}") from None

    async def lock(self, key: str, ms: int) -> str | None:
        """A token when this process may fetch ``key``; None when another holds the lock."""
        token = secrets.token_hex(8)
        try:
            won = await self._client.set(self.prefix + "lock:" + key, token, nx=True, px=max(ms, 1))
        except self._errors as e:
            raise CacheUnavailable(f"redis lock failed: {e}") from None
        return token if won else None

    async def unlock(self, key: str, token: str) -> None:
        try:
            await self._client.eval(_UNLOCK, 1, self.prefix + "lock:" + key, token)
        except self._errors as e:
            raise CacheUnavailable(f"redis unlock failed: {e}") from None

    async def close(self) -> None:
        made, self._made = self._made, None
        if made is not None and self._loop is asyncio.get_running_loop():
            try:
                await made.aclose()
            except self._errors:
                pass
