"""The steps an upstream call goes through, each a small coroutine that does its
part and hands the call to the next, in the manner of aiohttp's client
middlewares. ``call_path.py`` composes, once per kind of call, only the steps
that apply:

- ``Shared``: a read's cached answer, or a share of an identical read in flight
  (the process's one single flight, ``cache/flight.py``), or a call of its own,
  whose answer is then stored;
- ``Guarded``: waits before the call — its table's back-off, its API types'
  limits, a job's lease — and, for an idempotent call answered 429 or 503 with a
  ``Retry-After`` it may wait for, one wait and one call more;
- ``Recorded``: the call itself through the engine's HTTP client, recorded in
  the run's diagnostics, its outcome counted for its table's back-off, within a
  job call's deadline.

What a step needs of the run (its diagnostics, deadlines, answer budget, lease)
travels with the call (``Call.run``, a ``RunCalls``); what it needs of the
engine (client, cache, back-off board, limits) it holds. While a call waits on
its socket, its task holds at most six coroutine frames: the table call's,
these three steps', and the HTTP client's two (``tests/engine/test_call_path.py``
counts them).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from .. import timers
from ..cache.flight import Relead
from ..cache.responses import ResponseCache
from ..diagnostics import CallRecord
from ..errors import QlError, RequestBytesExceeded, UpstreamTimeout, UpstreamUnavailable
from ..http.client import HttpClient, HttpRequest, HttpResponse
from ..limits.api_types import ApiTypes
from ..limits.errors import LimitExceeded
from ..limits.gate import CallLimits, Ticket
from ..trace_context import new_span_id
from ..trust import url_origin
from .backoff import BackoffBoard, Delays, failed_status, retry_after_seconds
from .call import Call, RunCalls

Step = Callable[[Call], Awaitable[HttpResponse]]


class Recorded:
    """The call upstream, recorded; its outcome counted for its table's back-off
    (``board``: None for a caller's run, whose failing on purpose must not make a
    deployer's table back off for everyone)."""

    __slots__ = ("board", "http")

    def __init__(self, http: HttpClient, board: BackoffBoard | None):
        self.http, self.board = http, board

    async def send(self, call: Call) -> HttpResponse:
        request, runs = call.request, call.run
        request.check_url = runs.check_url  # a caller's calls reach allowed hosts only (every hop)
        request.budget = runs.answer_budget
        diagnostics = runs.diagnostics
        started = time.perf_counter()
        record = CallRecord(
            table=call.table,
            method=request.method.upper(),
            url=runs.secrets.mask(request.url),
            start=started - diagnostics.started,
            waited=call.waited if call.wait is not None else None,
            wait=call.wait,
            queued=call.queued or None,
        )
        diagnostics.calls.append(record)
        trace = runs.trace
        if trace is not None:  # traces on: the call's span id, known before it is sent
            record.span_id = span_id = new_span_id()
            request.headers["traceparent"] = trace.header(span_id)
        board = self.board
        try:
            seconds = runs.call_deadline
            if seconds is None:
                response = await self.http.send(request)
            else:
                deadline = timers.deadline(seconds)  # the loop's one timer (``timers.py``)
                try:
                    async with deadline:
                        response = await self.http.send(request)
                except TimeoutError:
                    if not deadline.expired():
                        raise
                    raise UpstreamTimeout(
                        f"the call took longer than its deadline of {seconds:g} s: "
                        f"{request.method.upper()} {runs.secrets.mask(request.url)}"
                    ) from None
        except QlError as e:
            record.error = runs.secrets.mask(e.message)
            record.end = time.perf_counter() - diagnostics.started
            if board is not None and isinstance(e, UpstreamUnavailable):
                board.failed(call.table)  # the network failed it (a timeout, a refused connection…)
            raise
        except asyncio.CancelledError:  # another statement failed, or its caller left: not a call that took no time
            record.cancel(time.perf_counter() - diagnostics.started)
            raise
        record.status = response.status
        record.bytes = response.wire_bytes
        record.end = time.perf_counter() - diagnostics.started
        record.attempts = response.attempts
        if board is not None:
            if failed_status(response.status):
                board.failed(call.table)
            else:
                board.succeeded(call.table)
        return response


class Guarded:
    """What a call waits for before it is sent, and the upstream's ``Retry-After``."""

    __slots__ = ("api_types", "board", "delays", "inner", "limits", "own_types", "retry_after_ms", "waits")

    def __init__(
        self,
        inner: Step,
        *,
        board: BackoffBoard,
        waits: bool,
        delays: Delays,
        limits: CallLimits | None,
        own_types: bool,
        api_types: ApiTypes,
    ):
        """``waits``: the call waits out its table's back-off (not a caller's own
        table's: the board never sees those); ``own_types``: a caller's own table,
        whose calls count against the API types of the deployer's tables that call the
        same host — never a type its name would choose, which the caller could pick to
        walk around a limit or to spend another API's quota."""
        self.inner, self.board, self.waits, self.delays = inner, board, waits, delays
        self.limits, self.own_types, self.api_types = limits, own_types, api_types
        self.retry_after_ms = board.settings.retry_after_max_ms

    async def send(self, call: Call) -> HttpResponse:
        if self.waits:
            waited = self._back_off(call)
            if waited:
                await asyncio.sleep(waited)
                call.waited, call.wait = waited, "backoff"
        limits, runs = self.limits, call.run
        limited = limits is not None or runs.gate is not None
        again = False
        while True:
            # the limits are waited for before the call, and given back after it: no
            # frame of theirs is on the path while it waits on its socket
            ticket = await self._admit(call) if limited else None
            try:
                response = await self.inner(call)
            finally:
                if limits is not None:
                    limits.release(ticket)
            after = None if again else self._retry_after(call, response)
            if after is None:
                return response
            await asyncio.sleep(after)  # the upstream asked for it: once, for an idempotent call
            call.waited, call.wait, call.queued = after, "retry-after", None
            again = True  # a second call, counted

    async def _admit(self, call: Call) -> Ticket | None:
        """Wait until the call's API types' limits let it through (waiting for them is
        not call time), and hold its units (the ticket, given back after the call).
        For a job's run, its worker's lease is waited for first — no token is taken
        for a call a suspended lease could not send — and checked again last, right
        before the call goes out: a token taken meanwhile goes back if the lease must
        be waited for again (a per-second token may be spent only at once)."""
        limits, runs = self.limits, call.run
        fence = runs.gate
        ready = getattr(fence, "ready_now", None)
        apis = None
        if limits is not None and self.own_types:
            apis = self.api_types.of_origin(url_origin(call.request.url), runs.deployer_tables)
        ticket = None
        try:
            while True:
                if fence is not None and ready is not None:
                    await fence(call.table)  # the lease, usable
                if limits is not None:
                    room = None if runs.patient else runs.room(call.request)
                    ticket = await limits.acquire(call.table, apis=apis, room=room, patient=runs.patient)
                if fence is None:
                    break
                if ready is None:
                    await fence(call.table)  # a plain gate: it is the last wait
                    break
                if ready():
                    break
                if limits is not None:
                    limits.release(ticket)
                ticket = None
        except BaseException as error:
            if limits is not None:
                limits.release(ticket)
            if isinstance(error, LimitExceeded):  # counted for the metrics: the refusal leaves no CallRecord
                runs.diagnostics.refuse(error.details["api"], error.details["limit"])
            raise
        if ticket is not None:
            call.queued = ticket.queued
        return ticket

    def _back_off(self, call: Call) -> float:
        """Seconds to wait out the table's back-off, if it is backing off (0: none,
        decided without a coroutine); the call is refused at once if that would take
        longer than it may wait."""
        board = self.board
        wait, interval = board.wait_for(call.table, self.delays)
        if wait <= 0:
            return 0.0
        room = call.run.room(call.request)
        if wait > room:
            raise board.refuse(call.table, wait, interval, room)
        return wait

    def _retry_after(self, call: Call, response: HttpResponse) -> float | None:
        """Seconds to wait before sending the request once more, if its upstream
        answered 429 or 503 with a ``Retry-After`` it may wait for: an idempotent
        request (GET, HEAD, or one the HTTP client retries), at most config
        ``backoff.retryAfterMax`` and what the request may still wait. None: the
        answer stands."""
        if response.status not in (429, 503) or not self.retry_after_ms:
            return None
        request = call.request
        if not (request.retry or request.method.upper() in ("GET", "HEAD")):
            return None
        after = retry_after_seconds(response.headers.get("retry-after"))
        if after is None or after * 1000 > self.retry_after_ms:
            return None
        return after if after <= call.run.room(request) else None


class Shared:
    """A read's answer from the cache, or shared with an identical read in flight, or
    fetched (and stored) by this one. A read that may be shared across runs (no
    caller's credential in it) is keyed by what it sends; one that may not is shared
    within its own run only."""

    __slots__ = ("cache", "inner")

    def __init__(self, inner: Step, cache: ResponseCache):
        self.inner, self.cache = inner, cache

    async def send(self, call: Call) -> HttpResponse:
        plan, runs, cache = call.plan, call.run, self.cache
        started = time.perf_counter()
        caching = False
        key: object
        if plan is not None and plan.storable:
            key = (plan.key, plan.occurrence)
            if runs.check_url is not None:
                _check(runs, call.request.url)  # a caller's run reads no answer from a host it may not call
            caching = cache.caching(plan)
            if caching:
                hit = await cache.lookup(plan)
                if hit is not None:
                    response, source = hit
                    if source == "stale":
                        cache.refresh(plan, lambda: self.inner(call))
                    return self._taken(call, response, source, started)
        else:  # it carries a caller's own credential, or is not a GET: shared within its run only
            request = call.request
            what = plan.key if plan is not None else _sent(request)
            key = (runs, what, call.occurrence)
        flights = cache.flights
        flight, waiter = flights.join(key, runs)
        while waiter is not None:
            try:
                response, source = await flights.follow(waiter)
            except Relead:  # its leader gave up: this one starts again, and may lead
                flight, waiter = flights.join(key, runs)
                continue
            if flight.owner is runs:
                runs.diagnostics.coalesced += 1  # the run's own read, made once
                return response
            return self._taken(call, response, "coalesced" if source == "sent" else source, started)
        # this read leads: the call is awaited right here (no frame more between the read
        # and its socket), with, for a cached read, the Redis lock around it and the
        # answer stored after
        token: str | None = None
        source = "sent"
        try:
            if caching:
                assert plan is not None
                may, token = await cache.lock(plan)
                stored = None if may else await cache.wait_for(plan)
                if stored is not None:
                    response, source = stored, "cache"  # another host fetched it meanwhile
            if source == "sent":
                response = await self.inner(call)
                if caching:
                    assert plan is not None
                    await cache.store(plan, response)
        except BaseException as e:
            flights.land(key, flight, error=e)
            raise
        finally:
            if token is not None:
                assert plan is not None
                await cache.unlock(plan, token)
        flights.land(key, flight, (response, source))
        if source != "sent":
            return self._taken(call, response, source, started)
        return response

    def _taken(self, call: Call, response: HttpResponse, source: str, started: float) -> HttpResponse:
        """An answer this run did not read off the wire: counted against its answer
        budget, checked against its allow-list, and recorded."""
        runs, request = call.run, call.request
        budget = runs.answer_budget
        if budget is not None and not budget.take(len(response.body)):
            raise RequestBytesExceeded(
                f"the request's upstream answers came to more than {budget.limit:,} bytes "
                f"(gateway.maxRequestBytes), with {request.method.upper()} {runs.secrets.mask(request.url)}"
            )
        if runs.check_url is not None and (response.redirects or response.url != request.url):
            for url in (*response.redirects, response.url):  # where the shared answer came from
                runs.check_url(url)
        diagnostics = runs.diagnostics
        diagnostics.calls.append(
            CallRecord(
                table=call.table,
                method=request.method.upper(),
                url=runs.secrets.mask(request.url),
                start=started - diagnostics.started,
                end=time.perf_counter() - diagnostics.started,
                status=response.status,
                bytes=len(response.body),
                source="cache" if source == "stale" else source,
                stale=True if source == "stale" else None,
            )
        )
        return response


def _sent(request: HttpRequest) -> tuple:
    """What a request sends, as a key (a select sent as a POST: no cache plan of its own)."""
    return (request.method.upper(), request.url, tuple(sorted(request.headers.items())), request.body)


def _check(runs: RunCalls, url: str) -> None:
    assert runs.check_url is not None
    try:
        runs.check_url(url)
    except ValueError as e:  # not even a URL ("http://[::1"), as the client says it
        raise UpstreamUnavailable(f"cannot reach {url}: invalid URL ({e})", uri=url) from None
