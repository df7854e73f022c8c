"""``CallLimits``: what a run's sender awaits before each upstream call, in
every qlgate process — the gateway, ``qlgate run``, a worker's jobs.

A call of a table counts against its API type (``api_types.py``): first a unit
of the type's calls in flight (its limit, ``inflight.py``), then a token of its
call rate (per second or per day, the job backend's ``CallGate``). Both come
from the store the process shares with the others — per host embedded, the
cluster's with ``--zookeeper`` — so no limit is per process. A type with
neither costs two dictionary lookups.

A call waits for both at most as long as its request may still wait (its
timeout, the gateway request's deadline); then it fails with ``LimitExceeded``
(429, naming the type and when to retry). A spent daily quota fails at once: it
would only come back at midnight. Jobs are patient: their calls wait as long as
their runs may last, a spent quota until midnight.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from typing import Any

from ..jobs.rates import CallGate, QuotaSpent
from .api_types import ApiTypes
from .errors import LimitExceeded
from .inflight import InFlight


@dataclass(slots=True)
class Ticket:
    """A call let through: its API type, the seconds it queued, whether it holds a
    unit of the type's calls in flight (given back by ``CallLimits.release``)."""

    api: str
    queued: float
    unit: bool


class CallLimits:
    def __init__(self, types: ApiTypes, rates: CallGate | None = None, inflight: InFlight | None = None):
        self.types = types
        self.rates = rates
        self.inflight = inflight

    async def acquire(self, table: str, *, room: float | None = None, patient: bool = False) -> Ticket | None:
        """Wait for the limits of ``table``'s API type; None when it has none. ``room``:
        the seconds the call may wait (None: as long as it takes, a job's)."""
        api = self.types.of(table)
        limit = self.inflight.store.limit(api) if self.inflight is not None else None
        rate = self.rates.store.rate(api) if self.rates is not None else None
        if limit is None and rate is None:
            return None
        started = time.monotonic()
        unit = False
        waiting_for = f"one of its {limit} calls in flight (its limit)"
        deadline = asyncio.timeout(room) if room is not None else contextlib.nullcontext()
        try:
            async with deadline:
                if limit is not None and self.inflight is not None:
                    await self.inflight.enter(api, limit)
                    unit = True
                if rate is not None and self.rates is not None:
                    waiting_for = f"a call token of its rate, {rate}"
                    await self.rates.acquire(api, patient=patient)
        except QuotaSpent as spent:
            self._release(api, unit)
            raise LimitExceeded(
                f"{api}: its daily quota of {spent.rate} is spent",
                api=api,
                limit="rate",
                retry_after=spent.retry_after,
                table=table,
            ) from None
        except TimeoutError:
            self._release(api, unit)
            if not isinstance(deadline, asyncio.Timeout) or not deadline.expired():
                raise
            raise LimitExceeded(
                f"{api}: the call waited {time.monotonic() - started:.1f} s for {waiting_for}, "
                "as long as its request could wait",
                api=api,
                limit="rate" if unit or limit is None else "inFlight",
                retry_after=1,
                table=table,
            ) from None
        except BaseException:
            self._release(api, unit)
            raise
        return Ticket(api, time.monotonic() - started, unit)

    def release(self, ticket: Ticket | None) -> None:
        """The call ended (or was never sent)."""
        if ticket is not None:
            self._release(ticket.api, ticket.unit)

    def _release(self, api: str, unit: bool) -> None:
        if unit and self.inflight is not None:
            self.inflight.leave(api)

    def usage(self) -> dict[str, dict[str, Any]]:
        """Per API type: this process's calls in flight and waiting, the units every
        process holds (calls in flight and units resting a moment before they go back), the rate and what is left of today's quota — for ``GET /limits``."""
        out: dict[str, dict[str, Any]] = {}
        if self.inflight is not None:
            for api, n in self.inflight.busy().items():
                out.setdefault(api, {})["inFlightHere"] = n
            for api, n in self.inflight.waiting().items():
                out.setdefault(api, {})["waitingHere"] = n
            try:
                for api, n in self.inflight.store.in_use().items():
                    out.setdefault(api, {})["held"] = n  # by every process: in flight, or resting
            except Exception:  # noqa: BLE001 — the store out of reach: show what this process knows
                pass
        if self.rates is not None:
            rates = getattr(self.rates.store, "rates", None)
            known = rates() if callable(rates) else dict(rates or {})
            for api, rate in known.items():
                entry = out.setdefault(api, {})
                entry["rate"] = str(rate)
                left = getattr(self.rates.store, "day_left", None)
                if rate.per == "day" and callable(left):
                    with contextlib.suppress(Exception):
                        entry["leftToday"] = left(api, rate.window(time.time()))
        return out

    def close(self) -> None:
        """Units and tokens in hand go back to the store (blocking)."""
        if self.inflight is not None:
            self.inflight.give_back_all()
        if self.rates is not None:
            with contextlib.suppress(Exception):
                self.rates.give_back()
