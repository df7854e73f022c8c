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

from ..config_keys import declared_default
from ..config_values import ConfigView
from ..errors import ConfigError

DEFAULT_MAX_BYTES: int = declared_default("cache.maxBytes")
_SCHEMES = ("redis", "rediss", "unix")


@dataclass(frozen=True)
class CacheSettings:
    backend: str = declared_default("cache.backend")  # "memory", "redis" or "none"
    max_bytes: int = DEFAULT_MAX_BYTES
    url: str | None = None
    prefix: str = declared_default("cache.prefix")
    # seconds an expired entry may still answer while it is refreshed
    stale_while_revalidate: int = declared_default("cache.staleWhileRevalidate")
    negative: int = declared_default("cache.negative")  # seconds a 404 is cached for (0: never)
    lock_ms: int = declared_default("cache.lockMs")  # how long one host holds the Redis fetch lock at most
    wait_ms: int = declared_default("cache.waitMs")  # how long other hosts wait for the entry before sending

    @classmethod
    def from_config(cls, data: dict[str, Any] | ConfigView) -> CacheSettings:
        """Types, minimums and the backend's choices are the declared keys' (a bad value
        is refused naming it); what no type says is checked here: the URL's scheme, and
        that ``redis`` has one."""
        view = data if isinstance(data, ConfigView) else ConfigView(data)
        raw = view.value("cache")
        if raw is False:
            return cls(backend="none")
        if not isinstance(raw, dict):  # true: nothing to turn on that is not on already
            raise ConfigError("config cache: must be an object, or false for no caching", path="cache")
        options = raw.get("options")
        if isinstance(options, dict):  # the older form: the keys nested, those beside it winning
            view = ConfigView({"cache": {**options, **raw}}, view.secrets)
        url = view.text("cache.url")
        if url and (":" not in url or url.split(":", 1)[0].lower() not in _SCHEMES):
            raise ConfigError(
                f"config cache.url must be a redis://, rediss:// or unix:// URL, not '{url.split(':', 1)[0][:20]}:…'",
                path="cache.url",
            )
        backend = view.text("cache.backend") if view.has("cache.backend") else view.text("cache.impl")
        backend = (backend or ("redis" if url else "memory")).strip().lower()
        if backend not in ("memory", "redis", "none"):  # the older ``impl``, which declares no choices
            raise ConfigError(f"config cache.impl must be memory, redis or none, not '{backend}'", path="cache.impl")
        if backend == "redis" and not url:
            raise ConfigError("config cache.backend redis needs cache.url (redis://host:port/db)", path="cache.url")
        return cls(
            backend=backend,
            max_bytes=view.integer("cache.maxBytes"),
            url=url,
            prefix=view.text("cache.prefix") or cls.prefix,
            stale_while_revalidate=int(view.number("cache.staleWhileRevalidate")),
            negative=int(view.number("cache.negative")),
            lock_ms=int(view.number("cache.lockMs")),
            wait_ms=int(view.number("cache.waitMs")),
        )
