"""How a run sends its upstream calls: through the engine's pooled client, with
identical reads made once (in the run, and across runs through the engine's
response cache and single flight, ``qlgate/cache``), every call recorded in the
run's diagnostics (``sent``, ``cache`` or ``coalesced``), the job backend's call
gate waited for, and an optional deadline per call.

The HTTP client knows nothing of runs; the table call knows nothing of
coalescing or diagnostics. This is the one place where a request becomes a
call the run accounts for.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from ..cache.keys import IDEMPOTENT
from ..cache.responses import CachePlan, ResponseCache
from ..config import Secrets
from ..errors import QlError, UpstreamTimeout, UpstreamUnavailable
from ..http.client import HttpClient, HttpRequest, HttpResponse
from .diagnostics import CallRecord, Diagnostics


class Sender:
    def __init__(
        self,
        http: HttpClient,
        diagnostics: Diagnostics,
        secrets: Secrets,
        *,
        upstream_check: Callable[[str], None] | None = None,
        call_gate: Callable[[str], Awaitable[None]] | None = None,
        call_deadline: float | None = None,
        cache: ResponseCache | None = None,
    ):
        self.http = http
        self.diagnostics = diagnostics
        self.secrets = secrets
        self.upstream_check = upstream_check  # a caller's calls are checked against the host allow-list
        self.call_gate = call_gate
        self.call_deadline = call_deadline  # seconds one upstream call may take in all, or None
        self.cache = cache  # the engine's: cached answers, and calls in flight shared across runs
        self._inflight: dict[tuple, asyncio.Future] = {}

    async def send(
        self, request: HttpRequest, *, coalesce: bool, table: str, occurrence: int = 0, plan: CachePlan | None = None
    ) -> HttpResponse:
        """Send through the engine's client; identical reads in one run are made once,
        and a GET or HEAD with a ``plan`` goes through the engine's response cache."""
        if not coalesce:
            return await self._send_recorded(request, table)
        key = (request.method, request.url, tuple(sorted(request.headers.items())), request.body, occurrence)
        future = self._inflight.get(key)
        if future is not None:
            self.diagnostics.coalesced += 1
            return await asyncio.shield(future)
        future = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            response = await self._send_shared(request, table, plan)
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

    async def _send_shared(self, request: HttpRequest, table: str, plan: CachePlan | None) -> HttpResponse:
        """A cached answer, a share of an identical call in flight, or a call of its own."""
        cache = self.cache
        if plan is None or cache is None or request.method.upper() not in IDEMPOTENT:
            return await self._send_recorded(request, table)
        check = self.upstream_check
        if check is not None:
            try:
                check(request.url)  # a caller's run reads no answer from a host it may not call
            except ValueError as e:  # not even a URL ("http://[::1"), as the client says it
                raise UpstreamUnavailable(f"cannot reach {request.url}: invalid URL ({e})", uri=request.url) from None
        diagnostics = self.diagnostics
        started = time.perf_counter()
        response, source = await cache.fetch(plan, request.method, lambda: self._send_recorded(request, table))
        if source == "sent":
            return response
        if check is not None:
            for url in (*response.redirects, response.url):
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

    async def _send_recorded(self, request: HttpRequest, table: str) -> HttpResponse:
        if self.upstream_check is not None:
            request.check_url = self.upstream_check
        if self.call_gate is not None:
            await self.call_gate(table)  # waiting for a call token is not call time
        diagnostics = self.diagnostics
        started = time.perf_counter()
        record = CallRecord(
            table=table,
            method=request.method.upper(),
            url=self.secrets.mask(request.url),
            start=started - diagnostics.started,
        )
        diagnostics.calls.append(record)
        try:
            if self.call_deadline is None:
                response = await self.http.send(request)
            else:
                response = await self._send_within(request, self.call_deadline)
        except QlError as e:
            record.error = self.secrets.mask(e.message)
            record.end = time.perf_counter() - diagnostics.started
            raise
        record.status = response.status
        record.bytes = response.wire_bytes
        record.end = time.perf_counter() - diagnostics.started
        record.attempts = response.attempts
        return response

    async def _send_within(self, request: HttpRequest, seconds: float) -> HttpResponse:
        """A call that ends within ``seconds`` whatever the upstream does (the HTTP
        client's timeout is per read: a server dripping bytes never trips it)."""
        deadline = asyncio.timeout(seconds)
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
