"""How a run sends its upstream calls: through the engine's pooled client, with
identical reads made once, every call recorded in the run's diagnostics, the
job backend's call gate waited for, and an optional deadline per call.

The HTTP client knows nothing of runs; the table call knows nothing of
coalescing or diagnostics. This is the one place where a request becomes a
call the run accounts for.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from ..config import Secrets
from ..errors import QlError, UpstreamTimeout
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
    ):
        self.http = http
        self.diagnostics = diagnostics
        self.secrets = secrets
        self.upstream_check = upstream_check  # a caller's calls are checked against the host allow-list
        self.call_gate = call_gate
        self.call_deadline = call_deadline  # seconds one upstream call may take in all, or None
        self._inflight: dict[tuple, asyncio.Future] = {}

    async def send(self, request: HttpRequest, *, coalesce: bool, table: str, occurrence: int = 0) -> HttpResponse:
        """Send through the engine's client; identical reads in one run are made once."""
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
            response = await self._send_recorded(request, table)
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
