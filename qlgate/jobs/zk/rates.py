"""Call tokens in ZooKeeper: each type's rate in ``rates/<type>``, each open
window's remaining budget in ``tokens/<type>/<window>``, taken in batches by
compare-and-set on the window node's version (as ids are)."""

from __future__ import annotations

import random
import threading
import time

from kazoo.client import KazooClient
from kazoo.exceptions import BadVersionError, NoNodeError, NodeExistsError

from ..rates import Rate
from ..types import check_type
from .layout import Layout, decode, encode


class ZkTokens:
    def __init__(self, client: KazooClient, *, root: str = "/qlgate"):
        self.client = client
        self.layout = Layout(root)
        self.rates_path = f"{root}/rates"
        self.tokens_path = f"{root}/tokens"
        client.ensure_path(self.rates_path)
        client.ensure_path(self.tokens_path)
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
                    rates[name] = Rate(data["calls"], data["per"])
                except NoNodeError:
                    continue
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

    # ------------------------------------------------------------------ tokens
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
                attempt += 1
                time.sleep(random.uniform(0, min(0.02, 0.0005 * 2 ** attempt)))

    def give_back(self, job_type: str, window: str, count: int) -> None:
        path = f"{self.tokens_path}/{job_type}/{window}"
        while True:
            try:
                data, stat = self.client.get(path)
                self.client.set(path, encode(decode(data) + count), version=stat.version)
                return
            except NoNodeError:
                return                    # the window is over: its tokens are worthless now
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


def _older(window: str, current: str) -> bool:
    """Windows are epoch seconds or ISO dates: both order as text of equal length."""
    return len(window) == len(current) and window < current
