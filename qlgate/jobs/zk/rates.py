"""Call tokens in ZooKeeper::

    rates/<type>              the type's rate (JSON: calls, per, timeZone)
    tokens/<type>/<date>      what is left of a daily budget on that date of the
                              rate's calendar, taken in batches by compare-and-set
                              on the node's version (as ids are)
    tokens/<type>/slots       per-second rates: the next free time slot, in
                              ZooKeeper's clock (ns); leases move it on by
                              compare-and-set (see qlgate/jobs/slots.py)
    tokens                    its data is written only to read ZooKeeper's clock

Slot times are the leader's wall clock as it stamps writes, so every process
reads the same clock whatever its host's says (see clock.py)."""

from __future__ import annotations

import dataclasses
import logging
import random
import re
import threading
import time

from kazoo.client import KazooClient
from kazoo.exceptions import BadVersionError, NoNodeError, NodeExistsError

from ..model import JobError
from ..rates import Rate
from ..slots import GRACE_NS, Slots, reserve
from ..types import check_type
from .clock import ServerClock
from .layout import Layout, decode, encode

log = logging.getLogger("qlgate.jobs.rates")
MEASURES = 3                # fresh readings of the clock a lease may take to narrow its uncertainty


class ZkTokens:
    def __init__(self, client: KazooClient, *, root: str = "/qlgate"):
        self.client = client
        self.layout = Layout(root)
        self.rates_path = f"{root}/rates"
        self.tokens_path = f"{root}/tokens"
        client.ensure_path(self.rates_path)
        client.ensure_path(self.tokens_path)
        self.clock = ServerClock()
        self._rates: dict[str, Rate] = {}
        self._lock = threading.Lock()
        self._reload()

    # ------------------------------------------------------------------ rates (cached, watched)
    def _changed(self, _event: object = None) -> None:
        threading.Thread(target=self._reload, daemon=True).start()   # never block kazoo's event thread

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
        except Exception:  # the session is away: keep what we know, the next watch reloads
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
                try:
                    self.client.create(path, encode(rate.calls), makepath=True)
                    self._forget_old_windows(job_type, window)
                except NodeExistsError:
                    pass
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
                return                    # the day is over: its tokens are worthless now
            except BadVersionError:
                continue

    def _forget_old_windows(self, job_type: str, current: str) -> None:
        try:
            windows = self.client.get_children(f"{self.tokens_path}/{job_type}")
        except NoNodeError:
            return
        for old in windows:
            if _older(old, current):
                self.client.delete_async(f"{self.tokens_path}/{job_type}/{old}")

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
                    return                # leased after: the slots before it just expire
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
            self._measure()                 # a slow round trip: read the clock again
            low, high = self._bounds_until_closed(slots)
        return dataclasses.replace(slots, shift=-low, spendable=GRACE_NS - (high - low))

    def _bounds_until_closed(self, slots: Slots) -> tuple[int, int]:
        low, high = self.clock.bounds()
        last_closes = slots.at(slots.count - 1) + GRACE_NS - (low + high) // 2      # in local time
        return self.clock.bounds(max(time.monotonic_ns(), last_closes))

    def _measure(self) -> None:
        sent = time.monotonic_ns()
        written = self.client.set(self.tokens_path, b"")
        self.clock.observe(written.mtime, sent, time.monotonic_ns())


def _readable(job_type: str, data: dict) -> Rate:
    """A stored rate; one this host cannot read (its tz database lacks the zone) lets
    no call through rather than count the partner's days wrong."""
    try:
        return Rate.from_json(data)
    except (JobError, AttributeError, TypeError) as error:
        log.error("type %s: its rate %r cannot be read here (%s); its calls wait", job_type, data, error)
        return Rate(0, "day")


def _back_off(attempt: int) -> int:
    """Another process changed the node first: wait a little, longer each time."""
    attempt += 1
    time.sleep(random.uniform(0, min(0.02, 0.0005 * 2 ** attempt)))
    return attempt


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _older(window: str, current: str) -> bool:
    """Days are ISO dates, which order as text; names of digits only are epoch seconds
    left by an older qlgate, which counted per-second rates that way."""
    return window.isdigit() or (_DATE.fullmatch(window) is not None and window < current)
