"""Back-off and ``Retry-After``: how an engine spares a partner API that is failing.

ql.io's ``timeout N minDelay M maxDelay X`` (spec §10.6 item 4): after
``failures`` (3) successive failures of the same table — a network error, a
5xx or a 429, counted per engine (one per gateway process) and per table name —
its calls wait before being sent (only deployer runs — routes, ``qlgate run``,
deployer jobs — count failures and successes: a caller failing on purpose must not
make a deployer table back off for everyone, though callers' calls do wait; a
caller's own inline tables are off the board altogether): ``minDelay`` ms after the last failure,
doubling with every further failure up to ``maxDelay`` ms, until one succeeds
(any other answer), which clears the count. A call whose wait would outlast
what its request may still wait fails at once with ``TableBackingOff``.

Back-off is off unless the statement gives ``minDelay`` or ``maxDelay`` or
config ``backoff`` gives either for every statement; failures are counted
either way. An upstream 429 or 503 with ``Retry-After`` is honoured for
idempotent calls whatever the back-off says (``call_steps.py``), up to config
``backoff.retryAfterMax`` ms (30 000; 0: never).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from ..config_keys import declared_default
from ..config_values import ConfigView
from ..errors import TableBackingOff

__all__ = ["BackoffBoard", "BackoffSettings", "Delays", "failed_status", "retry_after_header", "retry_after_seconds"]

FAILURES: int = declared_default("backoff.failures")  # successive failures before calls wait
DEFAULT_MIN_DELAY_MS = 500  # spec §10.6 item 4
DEFAULT_MAX_DELAY_MS = 30_000
# the longest Retry-After a call waits before its one retry
RETRY_AFTER_MAX_MS: int = declared_default("backoff.retryAfterMax")
RETRY_AFTER_CEILING = 86_400  # s: the longest Retry-After the gateway believes or gives its clients
MAX_TABLES = 10_000  # tables whose failures are remembered (callers' own tables can be many)


@dataclass(frozen=True, slots=True)
class Delays:
    """A statement's ``minDelay`` and ``maxDelay`` (ms), None where it gives none."""

    min_ms: int | None = None
    max_ms: int | None = None

    @property
    def given(self) -> bool:
        return self.min_ms is not None or self.max_ms is not None


NO_DELAYS = Delays()


@dataclass(frozen=True, slots=True)
class BackoffSettings:
    """Config ``backoff``: ``minDelay``/``maxDelay`` (ms; either turns back-off on for
    every statement), ``failures`` (3) and ``retryAfterMax`` (ms, 30 000)."""

    defaults: Delays = NO_DELAYS
    failures: int = FAILURES
    retry_after_max_ms: int = RETRY_AFTER_MAX_MS

    @classmethod
    def from_config(cls, data: dict[str, Any] | ConfigView) -> BackoffSettings:
        """Read through the declared keys (``config_keys``): a bad value is a
        ``ConfigError`` naming it."""
        view = data if isinstance(data, ConfigView) else ConfigView(data)
        return cls(
            Delays(view.optional_integer("backoff.minDelay"), view.optional_integer("backoff.maxDelay")),
            view.integer("backoff.failures"),
            view.integer("backoff.retryAfterMax"),
        )

    def interval_ms(self, failures: int, delays: Delays) -> int | None:
        """How long after the last of ``failures`` successive failures a call waits;
        None: back-off is off for this statement (or not due yet)."""
        if failures < self.failures:
            return None
        chosen = delays if delays.given else self.defaults
        if not chosen.given:
            return None
        low = chosen.min_ms if chosen.min_ms is not None else min(DEFAULT_MIN_DELAY_MS, chosen.max_ms or 0)
        high = chosen.max_ms if chosen.max_ms is not None else max(DEFAULT_MAX_DELAY_MS, low)
        doublings = min(failures - self.failures, 40)  # 2**40 × any minDelay is past any maxDelay
        return min(low * 2**doublings, max(high, low))


@dataclass(slots=True)
class _Failing:
    count: int = 0
    last: float = 0.0  # time.monotonic() of the last failure


class BackoffBoard:
    """Successive failures per table name, and the wait they call for."""

    def __init__(self, settings: BackoffSettings | None = None):
        self.settings = settings or BackoffSettings()
        self._failing: OrderedDict[str, _Failing] = OrderedDict()

    def failures(self, table: str) -> int:
        state = self._failing.get(table)
        return state.count if state is not None else 0

    def failed(self, table: str) -> None:
        state = self._failing.pop(table, None) or _Failing()
        state.count += 1
        state.last = time.monotonic()
        self._failing[table] = state  # most recent last: the oldest go first past MAX_TABLES
        while len(self._failing) > MAX_TABLES:
            self._failing.popitem(last=False)

    def succeeded(self, table: str) -> None:
        self._failing.pop(table, None)

    def wait_for(self, table: str, delays: Delays) -> tuple[float, int]:
        """(seconds a call of ``table`` must still wait, the back-off interval in ms);
        (0, 0) when it may go now."""
        state = self._failing.get(table)
        if state is None:
            return 0.0, 0
        interval = self.settings.interval_ms(state.count, delays)
        if not interval:
            return 0.0, 0
        return max(0.0, state.last + interval / 1000 - time.monotonic()), interval

    def refuse(self, table: str, wait: float, interval: int, room: float) -> TableBackingOff:
        """The error of a call whose back-off wait is longer than it may wait."""
        retry_after = retry_after_header(wait)
        return TableBackingOff(
            f"Back-off in progress: {table} failed {self.failures(table)} times in a row, so its calls wait "
            f"{interval} ms after the last failure; that is {wait * 1000:.0f} ms more, longer than this request "
            f"may wait ({max(room, 0) * 1000:.0f} ms); retry after {retry_after} s",
            table=table,
            retry_after=retry_after,
        )


def failed_status(status: int) -> bool:
    """Does an answer with this status count as a failure of its table?"""
    return status == 429 or status >= 500


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds from now, at most a day: a number of seconds or an
    HTTP date (RFC 9110 §10.2.3); None when absent or neither. An upstream's answer
    is data: whatever it holds (``²``, 400 nines, a date in the year 9999) this
    neither raises nor hands a client an absurd wait."""
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(min(int(text), RETRY_AFTER_CEILING)) if len(text) <= 10 else float(RETRY_AFTER_CEILING)
    try:
        import email.utils  # an HTTP date: rare, and the module is slow to import

        when = email.utils.parsedate_to_datetime(text)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = when.timestamp() - (time.time() if now is None else now)
    except (TypeError, ValueError, IndexError, OverflowError, OSError):
        return None
    if not math.isfinite(seconds):
        return None
    return min(max(0.0, seconds), float(RETRY_AFTER_CEILING))


def retry_after_header(seconds: float | None) -> int:
    """Whole seconds for a client's ``Retry-After``: at least 1, at most a day."""
    if seconds is None or not math.isfinite(seconds):
        return 1
    return min(max(1, math.ceil(seconds)), RETRY_AFTER_CEILING)
