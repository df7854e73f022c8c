"""A call-rate limit as a value (``Rate``): N calls per second, or per calendar
day in an IANA time zone, as configs, the CLI and HTTP bodies write it, and
which day a moment falls in for a daily quota.

Kept apart from the gate that enforces it (``rates.py``, which explains the
guarantee and re-exports everything here): it is a plain value that every
backend stores and passes around, and the gate and its token stores depend on
it, not the other way round."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from .errors import JobError

PERIODS = ("second", "day")
MAX_CALLS = 1_000_000_000  # a window's budget (stored as a SQLite integer and in ZooKeeper)
_ZONE_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]{0,29}(/[A-Za-z0-9_+\-]{1,30}){0,2}")
_NOT_ZONES = {"localtime", "posixrules"}  # files of the host's tz database that name no calendar


def time_zone(name: object) -> tzinfo:
    """An IANA time zone by name, or JobError saying why not."""
    if name == "UTC":
        return UTC  # needs no tz database
    if not isinstance(name, str) or not _ZONE_TEXT.fullmatch(name) or name in _NOT_ZONES:
        raise JobError(f"a rate's time zone is an IANA name such as America/Los_Angeles, not {str(name)[:100]!r}")
    # imported here: zoneinfo reads sysconfig's data at import (some 7 ms of every qlgate
    # run, which imports this module with the limits and names no zone)
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise JobError(f"unknown time zone {name!r} (IANA names such as America/Los_Angeles or UTC)") from None


def day_before(window: str) -> str:
    """The date before a daily window's (ISO dates, as ``Rate.window`` gives them)."""
    return (date.fromisoformat(window) - timedelta(days=1)).isoformat()


@dataclass(frozen=True)
class Rate:
    calls: int
    per: str  # "second" | "day"
    time_zone: str = "UTC"  # whose calendar days a daily quota counts

    def __post_init__(self) -> None:
        if not isinstance(self.per, str) or self.per not in PERIODS:
            raise JobError(f"a rate is per second or per day, not per {self.per!r}")
        if not isinstance(self.calls, int) or isinstance(self.calls, bool) or not 0 <= self.calls <= MAX_CALLS:
            raise JobError(f"a rate is a whole number of calls from 0 to {MAX_CALLS:,}, not {self.calls!r}")
        if self.per == "second" and self.time_zone != "UTC":
            raise JobError("only a daily quota has a time zone: a second is the same everywhere")
        time_zone(self.time_zone)

    @property
    def zone(self) -> tzinfo:
        return time_zone(self.time_zone)

    def window(self, now: float) -> str:
        """The day ``now`` falls in, as the partner's calendar has it (ISO date)."""
        return datetime.fromtimestamp(now, self._day_zone()).date().isoformat()

    def window_end(self, now: float) -> float:
        """The next midnight of the partner's calendar: 23 or 25 hours after the last one
        on the days daylight saving time begins or ends."""
        zone = self._day_zone()
        tomorrow = datetime.fromtimestamp(now, zone).date() + timedelta(days=1)
        return datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=zone).timestamp()

    def _day_zone(self) -> tzinfo:
        if self.per != "day":
            raise ValueError("a per-second rate has no windows: its calls are spaced (see slots.py)")
        return self.zone

    def to_dict(self) -> dict:
        if self.per == "day":
            return {"calls": self.calls, "per": self.per, "timeZone": self.time_zone}
        return {"calls": self.calls, "per": self.per}

    def __str__(self) -> str:
        text = f"{self.calls}/{self.per}"
        return text if self.per == "second" or self.time_zone == "UTC" else f"{text}@{self.time_zone}"

    @classmethod
    def from_json(cls, value) -> Rate | None:
        """A rate as HTTP bodies give it: ``"20/s"``, ``"5000/day@America/Los_Angeles"``,
        ``{"calls": 5000, "per": "day", "timeZone": "America/Los_Angeles"}``, or null (none)."""
        if value is None:
            return None
        if isinstance(value, dict):
            zone = value.get("timeZone")
            calls: Any = value.get("calls")  # checked by __post_init__, like every other field
            return cls(calls, value.get("per", "second"), "UTC" if zone is None else zone)
        return cls.parse(str(value))

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``20/s``, ``20/second``, ``5000/day``, ``5000/day@America/Los_Angeles``."""
        calls, _, rest = text.partition("/")
        per, at, zone = rest.partition("@")
        per = {"s": "second", "sec": "second", "d": "day"}.get(per.strip(), per.strip())
        if not re.fullmatch(r"[0-9]{1,30}", calls.strip()) or (at and not zone.strip()):
            # digits only: no "1_000", no 5,000-digit text
            raise JobError(f"a rate looks like 20/s, 5000/day or 5000/day@America/Los_Angeles, not {text[:100]!r}")
        return cls(int(calls), per, zone.strip() if at else "UTC")


def days_to_open(days: dict[str, str], rate: Rate, window: str) -> list[str] | None:
    """Whether a store may open day ``window`` of ``rate`` beside the ``days`` it keeps
    (date → the time zone whose calendar it is a date of): None when a later day of the
    same calendar has begun (the caller's clock lags); else the days to delete with it —
    days only move forward, the day before the newest is kept, and another calendar
    starts afresh. The rules of every token store (memory, SQLite, ZooKeeper's own)."""
    same = all(zone == rate.time_zone for zone in days.values())
    if same and any(day > window for day in days):
        return None
    keep = day_before(window)
    return [day for day, zone in days.items() if zone != rate.time_zone or day < keep]
