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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import timers
from ..errors import QlError
from .api_types import ApiTypes
from .errors import LimitExceeded, LimitsUnavailable
from .inflight import InFlight
from .rate import Rate
from .rates import CallGate, QuotaSpent


@dataclass(slots=True)
class Ticket:
    """A call let through: the API types whose calls in flight it holds a unit of
    (given back by ``CallLimits.release``) and the seconds it queued."""

    units: list[str]
    queued: float


@dataclass(slots=True)
class _Wait:
    """What an acquisition is waiting for, for the error that says so."""

    api: str = ""
    limit: str = "inFlight"
    what: str = ""


class CallLimits:
    def __init__(self, types: ApiTypes, rates: CallGate | None = None, inflight: InFlight | None = None):
        self.types = types
        self.rates = rates
        self.inflight = inflight

    async def acquire(
        self,
        table: str,
        *,
        apis: Sequence[str] | None = None,
        room: float | None = None,
        patient: bool = False,
    ) -> Ticket | None:
        """Wait for the limits of the call's API types — ``apis``, else ``table``'s —
        None when they have none. ``room``: the seconds the call may wait (None: as long
        as it takes, a job's). Order: a daily token (it keeps), then a unit of calls in
        flight, then a per-second slot (spent at once), so that no unit is held while a
        quota is waited for."""
        names = [self.types.of(table)] if apis is None else sorted(set(apis))
        try:
            wanted = [(api, self._limit(api), self._rate(api)) for api in names]
        except Exception as error:  # noqa: BLE001 — the store out of reach: a typed error, not a traceback
            raise LimitsUnavailable(f"the limits of {', '.join(names)} cannot be read: {error}") from None
        wanted = [w for w in wanted if w[1] is not None or w[2] is not None]
        if not wanted:
            return None
        for api, limit, _ in wanted:
            if limit == 0 and not patient:  # shut by its operator: no point waiting
                raise LimitExceeded(
                    f"{api}: its calls are paused (limit 0)", api=api, limit="inFlight", retry_after=60, table=table
                )
        started = time.monotonic()
        ticket = Ticket([], 0.0)
        waiting = _Wait()
        # the loop's one timer (``timers.py``), not a timer handle per call; None: no limit
        deadline = timers.deadline(room)
        try:
            async with deadline:
                for api, _, rate in wanted:
                    if rate is not None and rate.per == "day":
                        waiting.api, waiting.limit, waiting.what = api, "rate", f"its daily quota, {rate}"
                        await self._token(api, patient)
                for api, limit, _ in wanted:
                    if limit is not None and self.inflight is not None:
                        waiting.api, waiting.limit = api, "inFlight"
                        waiting.what = f"one of its {limit} calls in flight (its limit)"
                        await self.inflight.enter(api, limit)
                        ticket.units.append(api)
                for api, _, rate in wanted:
                    if rate is not None and rate.per == "second":
                        waiting.api, waiting.limit, waiting.what = api, "rate", f"a call slot of its rate, {rate}"
                        await self._token(api, patient)
        except QuotaSpent as spent:
            self.release(ticket)
            raise LimitExceeded(
                f"{spent.job_type}: its daily quota of {spent.rate} is spent",
                api=spent.job_type,
                limit="rate",
                retry_after=spent.retry_after,
                table=table,
            ) from None
        except TimeoutError:
            self.release(ticket)
            if not deadline.expired():
                raise
            raise LimitExceeded(
                f"{waiting.api}: the call waited {time.monotonic() - started:.1f} s for {waiting.what}, "
                "as long as its request could wait",
                api=waiting.api,
                limit=waiting.limit,
                retry_after=1,
                table=table,
            ) from None
        except (QlError, asyncio.CancelledError):
            self.release(ticket)
            raise
        except Exception as error:  # noqa: BLE001 — a token store out of reach, said as such
            self.release(ticket)
            raise LimitsUnavailable(f"the call tokens of {waiting.api} cannot be leased: {error}") from None
        except BaseException:
            self.release(ticket)
            raise
        ticket.queued = time.monotonic() - started
        return ticket

    def _limit(self, api: str) -> int | None:
        return self.inflight.store.limit(api) if self.inflight is not None else None

    def _rate(self, api: str) -> Rate | None:
        return self.rates.store.rate(api) if self.rates is not None else None

    async def _token(self, api: str, patient: bool) -> None:
        if self.rates is not None:
            await self.rates.acquire(api, patient=patient)

    def release(self, ticket: Ticket | None) -> None:
        """The call ended (or was never sent): its units of calls in flight go back."""
        if ticket is None or self.inflight is None:
            return
        units, ticket.units = ticket.units, []
        for api in units:
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

    def stop_background(self) -> None:
        """Cancel the work under way for this process's share (on its own loop): the
        engine is closing, and its loop may close after it."""
        if self.inflight is not None:
            self.inflight.stop_background()

    def close(self) -> None:
        """Units and tokens in hand go back to the store (blocking)."""
        if self.inflight is not None:
            self.inflight.give_back_all()
        if self.rates is not None:
            with contextlib.suppress(Exception):
                self.rates.give_back()
