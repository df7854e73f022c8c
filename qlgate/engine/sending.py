"""How a run sends its upstream calls: through the engine's pooled client, with
identical reads made once (in the run, and across runs through the engine's
response cache and single flight, ``qlgate/cache``), every call recorded in the
run's diagnostics (``sent``, ``cache`` or ``coalesced``), the API type's limits
waited for (calls in flight, call rates: ``qlgate/limits``), a job's lease
checked, and an optional deadline per call. Here too a failing table's
calls wait out its back-off, and an idempotent call answered 429 or 503 with
``Retry-After`` waits that long and is sent once more (``backoff.py``); neither
wait outlasts what the request may still wait (its timeout, the gateway
request's deadline, a job call's deadline).

The HTTP client knows nothing of runs; the table call knows nothing of
coalescing or diagnostics. This is the one place where a request becomes a
call the run accounts for.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from functools import partial

from .. import timers
from ..cache.keys import IDEMPOTENT
from ..cache.responses import CachePlan, ResponseCache
from ..config import Secrets
from ..diagnostics import CallRecord, Diagnostics
from ..errors import QlError, RequestBytesExceeded, UpstreamTimeout, UpstreamUnavailable
from ..http.budget import AnswerBudget
from ..http.client import HttpClient, HttpRequest, HttpResponse
from ..limits.gate import CallLimits
from .backoff import NO_DELAYS, BackoffBoard, Delays, failed_status, retry_after_seconds
from .options import DEFAULT, RunOptions


class Sender:
    __slots__ = (
        "_inflight",
        "answer_budget",
        "backoff",
        "cache",
        "call_deadline",
        "call_gate",
        "counts",
        "deadline",
        "diagnostics",
        "http",
        "limit_types",
        "limits",
        "patient",
        "secrets",
        "unboarded",
        "upstream_check",
    )

    def __init__(
        self,
        http: HttpClient,
        diagnostics: Diagnostics,
        secrets: Secrets,
        options: RunOptions = DEFAULT,
        *,
        upstream_check: Callable[[str], None] | None = None,
        cache: ResponseCache | None = None,
        backoff: BackoffBoard | None = None,
        counts: bool = True,
        unboarded: Callable[[str], bool] | None = None,
        limits: CallLimits | None = None,
        limit_types: Callable[[str, str], Sequence[str] | None] | None = None,
    ):
        """``options``: the run's (its call gate, deadlines, patience); the rest, what the
        engine shares among runs and the rules for a caller's calls (``run_sender.py``)."""
        self.http = http
        self.diagnostics = diagnostics
        self.secrets = secrets
        self.upstream_check = upstream_check  # a caller's calls are checked against the host allow-list
        self.call_gate = options.call_gate
        self.call_deadline = options.call_deadline  # seconds one upstream call may take in all, or None
        self.cache = cache  # the engine's: cached answers, and calls in flight shared across runs
        self.backoff = backoff  # the engine's: successive failures per table
        # only deployer runs count failures: a caller's failing on purpose must not
        # make a deployer table back off for everyone (their calls still wait)
        self.counts = counts
        self.unboarded = unboarded  # tables the board never sees (a caller's own inline tables)
        self.deadline = options.deadline  # time.monotonic() by which the run's request must be answered
        self.limits = limits  # the engine's: the API types' calls in flight and call rates
        self.patient = options.patient  # a job's run: its calls wait for limits as long as the run may last
        # (table, URL) → the API types a call counts against, when not its table's (a caller's own table)
        self.limit_types = limit_types
        # what the run's answers may come to, over all its calls (charged as they arrive)
        limit = options.max_answer_bytes
        self.answer_budget = AnswerBudget(limit) if limit is not None else None
        self._inflight: dict[str | tuple, asyncio.Future] = {}

    async def send(
        self,
        request: HttpRequest,
        *,
        coalesce: bool,
        table: str,
        occurrence: int = 0,
        plan: CachePlan | None = None,
        delays: Delays = NO_DELAYS,
    ) -> HttpResponse:
        """Send through the engine's client; identical reads in one run are made once,
        and a GET or HEAD with a ``plan`` goes through the engine's response cache."""
        if not coalesce:
            return await self._send_recorded(request, table, delays)
        key: str | tuple
        if plan is not None and (isinstance(plan.key, tuple) or plan.key.startswith("r:")):
            # what is sent, hashed already or as a tuple of its parts: no second key to build
            key = (plan.key, occurrence) if occurrence else plan.key
        else:
            key = (request.method, request.url, tuple(sorted(request.headers.items())), request.body, occurrence)
        future = self._inflight.get(key)
        if future is not None:
            self.diagnostics.coalesced += 1
            return await asyncio.shield(future)
        future = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            response = await self._send_shared(request, table, plan, delays)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as e:
            if not future.done():
                future.set_exception(e)
                future.exception()  # mark retrieved: waiters re-raise it
            raise
        future.set_result(response)
        return response

    async def _send_shared(
        self, request: HttpRequest, table: str, plan: CachePlan | None, delays: Delays
    ) -> HttpResponse:
        """A cached answer, a share of an identical call in flight, or a call of its own."""
        cache = self.cache
        if plan is None or cache is None or request.method.upper() not in IDEMPOTENT:
            return await self._send_recorded(request, table, delays)
        check = self.upstream_check
        if check is not None:
            try:
                check(request.url)  # a caller's run reads no answer from a host it may not call
            except ValueError as e:  # not even a URL ("http://[::1"), as the client says it
                raise UpstreamUnavailable(f"cannot reach {request.url}: invalid URL ({e})", uri=request.url) from None
        diagnostics = self.diagnostics
        started = time.perf_counter()
        # a partial, not a lambda: no closure cells made on every call of this method
        send = partial(self._send_recorded, request, table, delays)
        response, source = await cache.fetch(plan, request.method, send)
        if source == "sent":
            return response
        budget = self.answer_budget
        if budget is not None and not budget.take(len(response.body)):
            raise RequestBytesExceeded(  # an answer this run did not read off the wire counts too
                f"the request's upstream answers came to more than {budget.limit:,} bytes "
                f"(gateway.maxRequestBytes), with {request.method.upper()} {self.secrets.mask(request.url)}"
            )
        if check is not None and (response.redirects or response.url != request.url):
            for url in (*response.redirects, response.url):  # where the shared answer came from
                check(url)
        diagnostics.calls.append(
            CallRecord(
                table=table,
                method=request.method.upper(),
                url=self.secrets.mask(request.url),
                start=started - diagnostics.started,
                end=time.perf_counter() - diagnostics.started,
                status=response.status,
                bytes=len(response.body),
                source="cache" if source == "stale" else source,
                stale=True if source == "stale" else None,
            )
        )
        return response

    async def _send_recorded(self, request: HttpRequest, table: str, delays: Delays = NO_DELAYS) -> HttpResponse:
        if self.upstream_check is not None:
            request.check_url = self.upstream_check
        request.budget = self.answer_budget
        waited = self._back_off_wait(request, table, delays)
        if waited:
            await asyncio.sleep(waited)
        wait = "backoff" if waited else None
        if self.limits is None and self.call_gate is None:  # nothing to wait for: most runs
            response = await self._call(request, table, waited, wait)
        else:
            response = await self._limited_call(request, table, waited, wait)
        after = self._retry_after(request, response)
        if after is None:
            return response
        await asyncio.sleep(after)  # the upstream asked for it: once, for an idempotent call
        return await self._limited_call(request, table, after, "retry-after")  # a second call, counted

    async def _limited_call(self, request: HttpRequest, table: str, waited: float, wait: str | None) -> HttpResponse:
        """A call once its API types' limits let it through (waiting for them is not call
        time). For a job's run, its worker's lease is waited for first — no token is
        taken for a call a suspended lease could not send — and checked again last,
        right before the call goes out: a token taken meanwhile goes back if the lease
        must be waited for again (a per-second token may be spent only at once)."""
        limits, fence = self.limits, self.call_gate
        ready = getattr(fence, "ready_now", None)
        apis = self.limit_types(table, request.url) if limits is not None and self.limit_types is not None else None
        ticket = None
        try:
            while True:
                if fence is not None and ready is not None:
                    await fence(table)  # the lease, usable
                if limits is not None:
                    room = None if self.patient else self._room(request)
                    ticket = await limits.acquire(table, apis=apis, room=room, patient=self.patient)
                if fence is None:
                    break
                if ready is None:
                    await fence(table)  # a plain gate: it is the last wait
                    break
                if ready():
                    break
                if limits is not None:
                    limits.release(ticket)
                ticket = None
            return await self._call(request, table, waited, wait, ticket.queued if ticket is not None else None)
        finally:
            if limits is not None:
                limits.release(ticket)

    def _room(self, request: HttpRequest) -> float:
        """Seconds a call may still wait before it is sent: no longer than its timeout
        (the statement's), the run's deadline (the gateway request's) or a job call's."""
        room = request.timeout_ms / 1000
        if self.deadline is not None:
            room = min(room, self.deadline - time.monotonic())
        if self.call_deadline is not None:
            room = min(room, self.call_deadline)
        return room

    def _back_off_wait(self, request: HttpRequest, table: str, delays: Delays) -> float:
        """The seconds to wait out the table's back-off, if it is backing off (0: none,
        decided without a coroutine); refuse the call at once if that would take longer
        than it may wait."""
        board = self.backoff
        if board is None or (self.unboarded is not None and self.unboarded(table)):
            return 0.0
        wait, interval = board.wait_for(table, delays)
        if wait <= 0:
            return 0.0
        room = self._room(request)
        if wait > room:
            raise board.refuse(table, wait, interval, room)
        return wait

    def _retry_after(self, request: HttpRequest, response: HttpResponse) -> float | None:
        """Seconds to wait before sending ``request`` once more, if its upstream answered
        429 or 503 with a ``Retry-After`` it may wait for: an idempotent request (GET,
        HEAD, or one the HTTP client retries), at most config ``backoff.retryAfterMax``
        and what the request may still wait. None: the answer stands."""
        if response.status not in (429, 503) or self.backoff is None:
            return None
        if not (request.retry or request.method.upper() in IDEMPOTENT):
            return None
        after = retry_after_seconds(response.headers.get("retry-after"))
        limit = self.backoff.settings.retry_after_max_ms
        if after is None or not limit or after * 1000 > limit:
            return None
        return after if after <= self._room(request) else None

    async def _call(
        self, request: HttpRequest, table: str, waited: float, wait: str | None, queued: float | None = None
    ) -> HttpResponse:
        """One call upstream, recorded, its outcome counted for the table's back-off."""
        diagnostics, board = self.diagnostics, self.backoff if self.counts else None
        started = time.perf_counter()
        record = CallRecord(
            table=table,
            method=request.method.upper(),
            url=self.secrets.mask(request.url),
            start=started - diagnostics.started,
            waited=waited if wait is not None else None,
            wait=wait,
            queued=queued or None,
        )
        diagnostics.calls.append(record)
        try:
            if self.call_deadline is None:
                response = await self.http.send(request)
            else:
                response = await self._send_within(request, self.call_deadline)
        except asyncio.CancelledError:  # another statement failed: not a call that took no time
            record.cancel(time.perf_counter() - diagnostics.started)
            raise
        except QlError as e:
            record.error = self.secrets.mask(e.message)
            record.end = time.perf_counter() - diagnostics.started
            if board is not None and isinstance(e, UpstreamUnavailable):
                board.failed(table)  # the network failed it (a timeout, a refused connection…)
            raise
        record.status = response.status
        record.bytes = response.wire_bytes
        record.end = time.perf_counter() - diagnostics.started
        record.attempts = response.attempts
        if board is not None:
            if failed_status(response.status):
                board.failed(table)
            else:
                board.succeeded(table)
        return response

    async def _send_within(self, request: HttpRequest, seconds: float) -> HttpResponse:
        """A call that ends within ``seconds`` whatever the upstream does (the HTTP
        client's timeout is per read: a server dripping bytes never trips it)."""
        deadline = timers.deadline(seconds)  # the loop's one timer (``timers.py``)
        try:
            async with deadline:
                return await self.http.send(request)
        except TimeoutError:
            if deadline.expired():
                raise UpstreamTimeout(
                    f"the call took longer than its deadline of {seconds:g} s: "
                    f"{request.method.upper()} {self.secrets.mask(request.url)}"
                ) from None
            raise
