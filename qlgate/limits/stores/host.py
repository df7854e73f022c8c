"""The embedded store of limits, per host: the job backend's SQLite file
(``jobs.database``, default ``.qlgate/jobs.sqlite``), which every qlgate
process of a host opens — the gateway's ``--workers``, ``qlgate run``, the
embedded job runner — so a limit holds for all of them together.

It reads the limits and rates ``qlgate jobs limits/rates`` wrote there (looked
up again every ``RELOAD_S``), and keeps the counts beside them:

- ``call_units``: units of calls in flight held per type and process, and how
  many more it wants (``inflight.py``). A row names its process by pid and start
  time (a pid is reused, the pair is not) and the store by a random suffix; rows
  of processes that are gone are deleted by whoever reads them, so a process
  killed mid-call gives its units back by dying. Every process sharing the file
  must see the others' pids: one PID namespace (not containers of their own).
- ``call_slots``: per-second rates, the next free slot in the host's monotonic
  clock (``CLOCK_MONOTONIC``: one clock for every process of a boot; the row
  remembers the boot, and starts afresh after a reboot). The arithmetic is the
  job backend's (``qlgate/limits/slots.py``).
- ``call_days``: what is left of each daily quota, by date of the rate's
  calendar, with ZooKeeper's rules (days only move forward, the day before the
  newest is kept).

Every change is one ``begin immediate`` transaction: another process waits for
SQLite's write lock, microseconds, never for a count to be right.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..inflight import Holding, settle
from ..rate import Rate, days_to_open
from ..slots import Slots, reserve
from .sqlite import open_database

RELOAD_S = 1.0  # limits and rates changed by another process are seen within this

SCHEMA = """
create table if not exists limits (type text primary key, value integer not null);
create table if not exists rates (type text primary key, calls integer not null, per text not null,
                                  time_zone text not null default 'UTC');
create table if not exists call_units (type text not null, holder text not null, count integer not null,
                                       wanting integer not null, primary key (type, holder));
create table if not exists call_slots (type text primary key, next_ns integer not null, boot text not null);
create table if not exists call_days (type text not null, day text not null, time_zone text not null,
                                      left integer not null, primary key (type, day));
"""


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:  # not Linux: the boot time, to a second, from the clocks
        return str(round(time.time() - time.monotonic()))


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks after boot), None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None
    except OSError:
        return _alive_without_proc(pid)
    return stat.rpartition(")")[2].split()[19]


def _alive_without_proc(pid: int) -> str | None:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass
    return "?"


class HostLimits:
    """Both stores a process's ``CallLimits`` needs (units of calls in flight, call
    tokens), over one SQLite file."""

    blocks = True  # a write lock may be held by another process: not on the event loop
    epoch = 0  # a process's rows live as long as it does

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time):
        self.path = str(path)
        self._db = open_database(self.path, SCHEMA)
        self._lock = threading.Lock()
        self.clock = clock
        self.boot = _boot_id()
        pid = os.getpid()
        # the process (pid and start time: liveness) and this store (two engines of one
        # process keep counts of their own)
        self.holder = f"{pid}:{_start_time(pid)}:{uuid.uuid4().hex[:8]}"
        # reads of the limits and rates set, on a connection of their own: never behind a
        # transaction that waits for another process's write lock (they run on the event loop)
        self._reader = open_database(self.path, SCHEMA)
        self._read_lock = threading.Lock()
        self._loaded = 0.0
        self._limits: dict[str, int] = {}
        self._rates: dict[str, Rate] = {}
        self._alive: dict[str, bool] = {}

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._lock:
            self._db.execute("begin immediate")
            try:
                yield self._db
                self._db.execute("commit")
            except BaseException:
                self._db.execute("rollback")
                raise

    # ------------------------------------------------------------------ what is set
    def _reload(self) -> None:
        now = time.monotonic()
        if now - self._loaded < RELOAD_S:
            return
        with self._read_lock:
            limits = dict(self._reader.execute("select type, value from limits"))
            rates = {
                t: Rate(c, p, z) for t, c, p, z in self._reader.execute("select type, calls, per, time_zone from rates")
            }
        self._limits, self._rates, self._loaded = limits, rates, now

    def limit(self, api: str) -> int | None:
        self._reload()
        return self._limits.get(api)

    def rate(self, api: str) -> Rate | None:
        self._reload()
        return self._rates.get(api)

    def rates(self) -> dict[str, Rate]:
        self._reload()
        return dict(self._rates)

    def limits(self) -> dict[str, int]:
        self._reload()
        return dict(self._limits)

    # ------------------------------------------------------------------ calls in flight
    def _holders(self, db: Any, api: str) -> list[tuple[str, int, int]]:
        """(holder, units, wanting) of the live processes holding or wanting ``api``;
        rows of processes that are gone are deleted on the way."""
        live = []
        for holder, count, wanting in db.execute(
            "select holder, count, wanting from call_units where type = ?", (api,)
        ).fetchall():
            if holder == self.holder or self._is_alive(holder):
                live.append((holder, count, wanting))
            else:
                db.execute("delete from call_units where type = ? and holder = ?", (api, holder))
        return live

    def _is_alive(self, holder: str) -> bool:
        pid, _, rest = holder.partition(":")
        started = rest.partition(":")[0]
        now = _start_time(int(pid)) if pid.isdigit() else None
        return now is not None and (now == started or "?" in (now, started))

    def hold(self, api: str, limit: int, total: int, wanting: int) -> Holding:
        with self._transaction() as db:
            live = self._holders(db, api)
            mine = sum(count for holder, count, _ in live if holder == self.holder)
            others = sum(count for holder, count, _ in live if holder != self.holder)
            held = settle(mine, others, limit, total)
            wanting += total - held  # what it asked for and did not get, too
            if held or wanting:
                db.execute(
                    "insert into call_units values (?, ?, ?, ?) on conflict(type, holder) "
                    "do update set count = excluded.count, wanting = excluded.wanting",
                    (api, self.holder, held, wanting),
                )
            else:
                db.execute("delete from call_units where type = ? and holder = ?", (api, self.holder))
            return Holding(held, sum(1 for holder, _, w in live if holder != self.holder and w > 0))

    def in_use(self) -> dict[str, int]:
        with self._transaction() as db:
            apis = [row[0] for row in db.execute("select distinct type from call_units").fetchall()]
            return {api: n for api in apis if (n := sum(count for _, count, _ in self._holders(db, api)))}

    # ------------------------------------------------------------------ daily quotas
    def lease(self, api: str, rate: Rate, window: str, count: int) -> int:
        with self._transaction() as db:
            rows = db.execute("select day, time_zone, left from call_days where type = ?", (api,)).fetchall()
            left = {day: n for day, _, n in rows}
            if window not in left:
                gone = days_to_open({day: zone for day, zone, _ in rows}, rate, window)
                if gone is None:
                    return 0  # a later day has begun: this caller's clock lags
                for day in gone:
                    db.execute("delete from call_days where type = ? and day = ?", (api, day))
                left[window] = rate.calls
                db.execute("insert into call_days values (?, ?, ?, ?)", (api, window, rate.time_zone, rate.calls))
            got = min(left[window], count)
            if got:
                db.execute("update call_days set left = left - ? where type = ? and day = ?", (got, api, window))
            return got

    def give_back(self, api: str, window: str, count: int) -> None:
        with self._transaction() as db:
            db.execute("update call_days set left = left + ? where type = ? and day = ?", (count, api, window))

    def day_left(self, api: str, window: str) -> int | None:
        with self._lock:
            row = self._db.execute("select left from call_days where type = ? and day = ?", (api, window)).fetchone()
        rate = self.rate(api)
        return row[0] if row else (rate.calls if rate is not None else None)

    # ------------------------------------------------------------------ per-second slots
    def _next_slot(self, db: Any, api: str) -> int:
        row = db.execute("select next_ns, boot from call_slots where type = ?", (api,)).fetchone()
        return row[0] if row and row[1] == self.boot else 0

    def lease_slots(self, api: str, rate: Rate, count: int) -> Slots:
        with self._transaction() as db:
            slots = reserve(self._next_slot(db, api), time.monotonic_ns(), rate.calls, count)
            db.execute(
                "insert into call_slots values (?, ?, ?) on conflict(type) do update set next_ns = excluded.next_ns, "
                "boot = excluded.boot",
                (api, slots.end, self.boot),
            )
            return slots

    def return_slots(self, api: str, slots: Slots, first_unspent: int) -> None:
        with self._transaction() as db:
            if self._next_slot(db, api) == slots.end:
                db.execute("update call_slots set next_ns = ? where type = ?", (slots.at(first_unspent), api))

    def close(self) -> None:
        with self._lock:
            self._db.execute("delete from call_units where holder = ?", (self.holder,))
            self._db.close()
        with self._read_lock:
            self._reader.close()
