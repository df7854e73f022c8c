"""Call tokens in ZooKeeper::

    rates/<type>              the type's rate (JSON: calls, per, timeZone)
    tokens/<type>             its data names the calendar its dates are days of
                              (JSON: timeZone); a new day's node is created in a
                              transaction that checks and rewrites it
    tokens/<type>/<date>      what is left of a daily budget on that date of the
                              rate's calendar, taken in batches by compare-and-set
                              on the node's version (as ids are)
    tokens/<type>/slots       per-second rates: the next free time slot, in
                              ZooKeeper's clock (ns); leases move it on by
                              compare-and-set (see qlgate/limits/slots.py)
    tokens                    its data is written only to read ZooKeeper's clock

Slot times are the leader's wall clock as it stamps writes, so every process
reads the same clock whatever its host's says (see clock.py).

Which day it is, though, each process reads off its own host's wall clock
(``CallGate.clock``), and hosts disagree by their clock skew — for seconds at
midnight. So that no disagreement can hand out a budget twice, days only move
forward: a day's node is created only if no later day's exists (a host whose
clock lags gets no tokens from a day the cluster has left, until its own clock
reaches the new one: it waits out its skew, once a day), and the day before the
newest is kept (a lagging host goes on spending what is left of it, from the
same shared count, until its own midnight) — only older days are deleted. A
rate moved to another time zone counts days of another calendar, whose dates
may run behind the old ones by one: the first day the new calendar opens starts
a fresh budget, and the old calendar's days are deleted with it (a date the old
calendar already has a node for goes on from that node's count)."""

from __future__ import annotations

import dataclasses
import logging
import random
import re
import threading
import time

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import BadVersionError, NodeExistsError, NoNodeError, RolledBackError

from ..api_types import check_type
from ..clock import ServerClock
from ..errors import JobError
from ..rate import Rate, day_before
from ..slots import GRACE_NS, Slots, reserve
from .zk_nodes import decode, encode

# the name operators' log settings know it by, from before the rates moved out of qlgate/jobs/
log = logging.getLogger("qlgate.jobs.rates")
MEASURES = 3  # fresh readings of the clock a lease may take to narrow its uncertainty


class ZkTokens:
    def __init__(self, client: KazooClient, *, root: str = "/qlgate"):
        self.client = client
        self.rates_path = f"{root}/rates"
        self.tokens_path = f"{root}/tokens"
        client.ensure_path(self.rates_path)
        client.ensure_path(self.tokens_path)
        self.clock = ServerClock()
        self._rates: dict[str, Rate] = {}
        self._lock = threading.Lock()
        # an expired session fires the watches while it cannot read: read again, and watch
        # again, each time the client is connected anew
        client.add_listener(lambda state: self._changed() if state == KazooState.CONNECTED else None)
        self._reload()

    # ------------------------------------------------------------------ rates (cached, watched)
    def _changed(self, _event: object = None) -> None:
        threading.Thread(target=self._reload, daemon=True).start()  # never block kazoo's event thread

    def _reload(self) -> None:
        try:
            names = self.client.get_children(self.rates_path, watch=self._changed)
            rates = {}
            for name in names:
                try:
                    data = decode(self.client.get(f"{self.rates_path}/{name}", watch=self._changed)[0])
                except NoNodeError:
                    continue
                rates[name] = _readable(name, data)
        except Exception:  # noqa: BLE001 — the session is away: keep what we know, the next watch reloads
            return
        with self._lock:
            self._rates = rates

    def rate(self, job_type: str) -> Rate | None:
        with self._lock:
            return self._rates.get(job_type)

    def set_rate(self, job_type: str, rate: Rate | None) -> None:
        path = f"{self.rates_path}/{check_type(job_type)}"
        if rate is None:
            try:
                self.client.delete(path)
            except NoNodeError:
                pass
        else:
            try:
                self.client.create(path, encode(rate.to_dict()))
            except NodeExistsError:
                self.client.set(path, encode(rate.to_dict()))
        self._reload()

    def rates(self) -> dict[str, Rate]:
        self._reload()
        with self._lock:
            return dict(self._rates)

    # ------------------------------------------------------------------ daily budgets
    def lease(self, job_type: str, rate: Rate, window: str, count: int) -> int:
        path = f"{self.tokens_path}/{job_type}/{window}"
        attempt = 0
        while True:
            try:
                data, stat = self.client.get(path)
            except NoNodeError:
                if not self._open_day(job_type, rate, window):
                    return 0  # a later day has begun: this host's clock lags
                continue
            left = decode(data)
            got = min(left, count)
            if got == 0:
                return 0
            try:
                self.client.set(path, encode(left - got), version=stat.version)
                return got
            except BadVersionError:
                attempt = _back_off(attempt)

    def give_back(self, job_type: str, window: str, count: int) -> None:
        path = f"{self.tokens_path}/{job_type}/{window}"
        while True:
            try:
                data, stat = self.client.get(path)
                self.client.set(path, encode(decode(data) + count), version=stat.version)
                return
            except NoNodeError:
                return  # the day is over: its tokens are worthless now
            except BadVersionError:
                continue

    def _open_day(self, job_type: str, rate: Rate, window: str) -> bool:
        """Create day ``window``'s budget unless a later day of the same calendar exists
        (then False: no tokens for this host yet). True when the day may exist now,
        whoever created it: the caller looks again.

        One transaction checks and rewrites the type's node, so processes opening days
        at once take turns, and none creates a day on a listing another has since made
        stale. Moving to another calendar deletes the old one's days, and only toward
        the time zone the stored rate has now (checked in the same transaction): a
        process whose copy of the rate is behind cannot move the type back and forth."""
        parent = f"{self.tokens_path}/{job_type}"
        try:
            data, stat = self.client.get(parent)
            children = self.client.get_children(parent)
        except NoNodeError:
            self.client.ensure_path(parent)
            return True
        days = [name for name in children if _DATE.fullmatch(name)]
        calendar = _calendar(data)
        same = calendar is None or calendar == rate.time_zone  # None: made by an older qlgate
        if same and any(day > window for day in days):
            return False
        tx = self.client.transaction()
        tx.check(parent, stat.version)
        tx.set_data(parent, encode({"timeZone": rate.time_zone}))
        tx.create(f"{parent}/{window}", encode(rate.calls))
        if not same:
            rate_path = f"{self.rates_path}/{job_type}"
            try:
                stored, rate_stat = self.client.get(rate_path)
            except NoNodeError:
                return False  # the rate is gone: no calls to count
            if _readable(job_type, decode(stored)).time_zone != rate.time_zone:
                self._changed()  # this copy of the rate is behind: read it again
                return False
            tx.check(rate_path, rate_stat.version)
            for day in days:  # another calendar's dates: its days end here
                tx.delete(f"{parent}/{day}")
        failures = [r for r in tx.commit() if isinstance(r, Exception) and not isinstance(r, RolledBackError)]
        if failures:
            if isinstance(failures[0], (BadVersionError, NodeExistsError, NoNodeError)):
                return True  # another process got there first: look again
            raise failures[0]
        keep = day_before(window)
        for old in children:  # tidying only: older days are no one's any more
            if old.isdigit() or (same and _DATE.fullmatch(old) and old < keep):
                self.client.delete_async(f"{parent}/{old}")
        return True

    # ------------------------------------------------------------------ per-second slots
    def lease_slots(self, job_type: str, rate: Rate, count: int) -> Slots:
        path = f"{self.tokens_path}/{job_type}/slots"
        if (self.clock.width() or GRACE_NS) > GRACE_NS // 4:
            self._measure()
        attempt = 0
        while True:
            try:
                data, stat = self.client.get(path)
            except NoNodeError:
                try:
                    self.client.create(path, encode({"next": 0}), makepath=True)
                except NodeExistsError:
                    pass
                continue
            slots = reserve(int(decode(data)["next"]), self.clock.server_now(), rate.calls, count)
            sent = time.monotonic_ns()
            try:
                written = self.client.set(path, encode({"next": slots.end}), version=stat.version)
            except BadVersionError:
                attempt = _back_off(attempt)
                continue
            self.clock.observe(written.mtime, sent, time.monotonic_ns())
            return self._in_local_time(slots)

    def return_slots(self, job_type: str, slots: Slots, first_unspent: int) -> None:
        path = f"{self.tokens_path}/{job_type}/slots"
        while True:
            try:
                data, stat = self.client.get(path)
                if int(decode(data)["next"]) != slots.end:
                    return  # leased after: the slots before it just expire
                self.client.set(path, encode({"next": slots.at(first_unspent)}), version=stat.version)
                return
            except NoNodeError:
                return
            except BadVersionError:
                continue

    def _in_local_time(self, slots: Slots) -> Slots:
        """When this process may spend each slot: from ``s − low`` (the server's clock has
        surely reached s) to ``s + g − high`` (it has surely not reached s + g), with the
        offset bounds widened for drift until the last slot closes."""
        low, high = self._bounds_until_closed(slots)
        for _ in range(MEASURES):
            if high - low <= GRACE_NS // 2:
                break
            self._measure()  # a slow round trip: read the clock again
            low, high = self._bounds_until_closed(slots)
        return dataclasses.replace(slots, shift=-low, spendable=GRACE_NS - (high - low))

    def _bounds_until_closed(self, slots: Slots) -> tuple[int, int]:
        now = self.clock.bounds()
        if now is None:
            raise RuntimeError("the server's clock has not been measured yet")
        low, high = now
        last_closes = slots.at(slots.count - 1) + GRACE_NS - (low + high) // 2  # in local time
        later = self.clock.bounds(max(time.monotonic_ns(), last_closes))
        assert later is not None  # measured above
        return later

    def _measure(self) -> None:
        sent = time.monotonic_ns()
        written = self.client.set(self.tokens_path, b"")
        self.clock.observe(written.mtime, sent, time.monotonic_ns())


def _readable(job_type: str, data: dict) -> Rate:
    """A stored rate; one this host cannot read (its tz database lacks the zone) lets
    no call through rather than count the partner's days wrong."""
    try:
        rate = Rate.from_json(data)
        if rate is None:
            raise TypeError("no rate")
        return rate
    except (JobError, AttributeError, TypeError) as error:
        log.error("type %s: its rate %r cannot be read here (%s); its calls wait", job_type, data, error)
        return Rate(0, "day")


def _back_off(attempt: int) -> int:
    """Another process changed the node first: wait a little, longer each time."""
    attempt += 1
    time.sleep(random.uniform(0, min(0.02, 0.0005 * 2**attempt)))
    return attempt


# Days are ISO dates, which order as text. Names of digits only, under a type's node, are
# epoch seconds left by an older qlgate, which counted per-second rates that way.
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _calendar(data: bytes) -> str | None:
    """The time zone a type's days were counted in; None if an older qlgate made the node."""
    try:
        value = decode(data)
    except ValueError:
        return None
    zone = value.get("timeZone") if isinstance(value, dict) else None
    return zone if isinstance(zone, str) else None
