"""One upstream call on its way through the call path (``call_steps.py``), and
what it carries of its run: made once per run (``RunCalls``), not rebuilt per
call, and read by the steps that need it."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..http.budget import AnswerBudget

if TYPE_CHECKING:
    from ..cache.responses import CachePlan
    from ..config import Secrets
    from ..diagnostics import Diagnostics
    from ..http.client import HttpRequest
    from .options import RunOptions


class RunCalls:
    """The run's side of its calls: where they are recorded, what their answers may
    come to, by when they must be answered, the lease a job's calls wait for, and
    the host allow-list a caller's calls are checked against."""

    __slots__ = (
        "answer_budget",
        "call_deadline",
        "check_url",
        "deadline",
        "deployer_tables",
        "diagnostics",
        "gate",
        "patient",
        "secrets",
        "trace",
    )

    def __init__(
        self,
        diagnostics: Diagnostics,
        secrets: Secrets,
        options: RunOptions,
        *,
        check_url: Callable[[str], None] | None = None,
        deployer_tables: Any = None,
    ):
        self.diagnostics, self.secrets = diagnostics, secrets
        self.check_url = check_url  # a caller's calls reach allowed hosts only; None: a deployer's
        self.gate: Callable[[str], Awaitable[None]] | None = options.call_gate  # a job's lease
        self.call_deadline = options.call_deadline  # seconds one upstream call may take in all, or None
        self.deadline = options.deadline  # time.monotonic() by which the run's request must be answered
        self.patient = options.patient  # a job's run: its calls wait for limits as long as the run may last
        limit = options.max_answer_bytes  # what the run's answers may come to, charged as they arrive
        self.answer_budget = AnswerBudget(limit) if limit is not None else None
        self.deployer_tables = deployer_tables  # whose API types a caller's own tables count against
        self.trace = options.trace  # the request's trace, when traces are on: a traceparent per call

    def room(self, request: HttpRequest) -> float:
        """Seconds a call may still wait before it is sent: no longer than its timeout
        (the statement's), the run's deadline (the gateway request's) or a job call's."""
        room = request.timeout_ms / 1000
        if self.deadline is not None:
            room = min(room, self.deadline - time.monotonic())
        if self.call_deadline is not None:
            room = min(room, self.call_deadline)
        return room


class Call:
    """One request of a statement, with what the steps learn of it on the way (how
    long it waited, and why; how long it queued for its limits)."""

    __slots__ = ("occurrence", "plan", "queued", "request", "run", "table", "wait", "waited")

    def __init__(
        self, request: HttpRequest, table: str, run: RunCalls, plan: CachePlan | None = None, occurrence: int = 0
    ):
        self.request, self.table, self.run = request, table, run
        self.plan = plan  # what the response cache may do for it (reads)
        self.occurrence = occurrence  # the n-th identical request of one statement: a call of its own
        self.waited = 0.0
        self.wait: str | None = None
        self.queued: float | None = None
