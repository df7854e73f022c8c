"""Config ``cache`` (spec §15): which backend holds cached answers and the
optional behaviours, read once with safe defaults.

    "cache": {"backend": "memory", "maxBytes": 67108864}          the embedded default
    "cache": {"url": "redis://127.0.0.1:6379/0"}                  shared by every process
    "cache": {"backend": "none"}  or  "cache": false              no caching at all

The spec's older form ``{"impl": "memory", "options": {…}}`` is read too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

DEFAULT_MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class CacheSettings:
    backend: str = "memory"  # "memory", "redis" or "none"
    max_bytes: int = DEFAULT_MAX_BYTES
    url: str | None = None
    prefix: str = "qlgate:cache:"
    stale_while_revalidate: int = 0  # seconds an expired entry may still answer while it is refreshed
    negative: int = 0  # seconds a 404 is cached for (0: never)
    lock_ms: int = 5000  # how long one host holds the Redis fetch lock at most
    wait_ms: int = 2000  # how long other hosts wait for the entry before sending themselves

    @classmethod
    def from_config(cls, data: dict[str, Any]) -> CacheSettings:
        raw = data.get("cache")
        if raw is None:
            return cls()
        if raw is False:
            return cls(backend="none")
        if not isinstance(raw, dict):
            raise ConfigError(f"config cache must be an object, not {type(raw).__name__}")
        merged = {**(raw.get("options") or {}), **raw} if isinstance(raw.get("options"), dict) else dict(raw)
        url = merged.get("url")
        if url is not None and not isinstance(url, str):
            raise ConfigError("config cache.url must be a string (redis://host:port/db)")
        if (url and url.split(":", 1)[0].lower() not in ("redis", "rediss", "unix")) or (url and ":" not in url):
            raise ConfigError(
                f"config cache.url must be a redis://, rediss:// or unix:// URL, not '{url.split(':', 1)[0][:20]}:…'"
            )
        backend = merged.get("backend", merged.get("impl"))
        if backend is None:
            backend = "redis" if url else "memory"
        backend = str(backend).lower()
        if backend not in ("memory", "redis", "none"):
            raise ConfigError(f"config cache.backend must be memory, redis or none, not '{backend}'")
        if backend == "redis" and not url:
            raise ConfigError("config cache.backend redis needs cache.url (redis://host:port/db)")

        def seconds(key: str, default: int) -> int:
            value = merged.get(key, default)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
                raise ConfigError(f"config cache.{key} must be a non-negative number")
            return int(value)

        return cls(
            backend=backend,
            max_bytes=seconds("maxBytes", DEFAULT_MAX_BYTES),
            url=url,
            prefix=str(merged.get("prefix") or "qlgate:cache:"),
            stale_while_revalidate=seconds("staleWhileRevalidate", 0),
            negative=seconds("negative", 0),
            lock_ms=seconds("lockMs", 5000),
            wait_ms=seconds("waitMs", 2000),
        )
