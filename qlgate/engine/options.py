"""How one run of a compiled script goes: its inputs (variables, the incoming
request, where it loads code from) and its bounds (deadlines, the call gate,
whether it waits for limits, whether it may share decoded answers). One frozen
value, built by whoever starts the run (``Engine.execute``'s keywords, the
gateway, a job runner, ``qlgate run``, the shell) and handed whole to the run
and its sender: an option is added here, in one place."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..request_info import RequestInfo
from ..trace_context import TraceContext


@dataclass(frozen=True)
class RunOptions:
    # the script's variables to start with (``qlgate run --var``, a route's parameters, …)
    context: Mapping[str, Any] | None = None
    request: RequestInfo | None = None  # the gateway request it runs for; None outside one
    base_dir: Path | None = None  # where a deployer's script finds the files it names
    request_id: str | None = None  # the id its logs and diagnostics name
    # awaited with the table's name before every upstream call (the job backend's lease check)
    call_gate: Callable[[str], Awaitable[None]] | None = None
    # context names that are data (a request body's members), never a table
    values_only: frozenset[str] = frozenset()
    # the longest one upstream call may take, retries included (a job's calls must end in
    # bounded time, ``jobs/zk/lease.py``)
    call_deadline: float | None = None
    # the ``time.monotonic()`` by which the run must be done (a gateway request's): no call
    # waits for back-off, ``Retry-After`` or a limit past it
    deadline: float | None = None
    # a job's run, whose calls wait for their API types' limits as long as it may last
    patient: bool = False
    # the result is only read (encoded, stored), never changed, so its reads may share the
    # tree decoded for another run's identical call in flight instead of decoding a copy
    # each (only where the script hands no value to deployer code: ``Compiled.shareable``);
    # the default gives each run values of its own
    shares_answers: bool = False
    # bytes of upstream answers the run may read over all its calls (a gateway request's
    # ``gateway.maxRequestBytes``); None: each answer's own cap only
    max_answer_bytes: int | None = None
    # the gateway request's trace when traces are on (``trace_context.py``): each upstream
    # call gets a span id and sends it as its ``traceparent``; None: nothing is done per call
    trace: TraceContext | None = None

    def but(self, **changes: Any) -> RunOptions:
        """These options with ``changes`` (names of the fields above; a wrong one is a TypeError)."""
        return replace(self, **changes) if changes else self


DEFAULT = RunOptions()
