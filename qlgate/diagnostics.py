"""What a run did upstream: each call's method, URL (secrets masked), status,
bytes and timing, where its answer came from (``sent`` upstream, the response
``cache``, or ``coalesced`` with an identical call of another run already in
flight), and the script's wall time against the sum of call times — the
difference is what parallelism bought. Time a call waited before it was sent
(back-off, an upstream's ``Retry-After``) is shown apart from its call time, and
so is time it queued for its API type's limits (``qlgate/limits``). Each call
names the line of the statement that made it, and a call the run gave up on
(another statement failed first, and the run's other tasks were cancelled) says
``cancelled`` and when, rather than passing for a call that took no time.
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from typing import Any

# The line of the statement being evaluated: set by the run in each statement's own task
# (``Run.evaluate_choices``), read when a call is recorded, so the sender need not be told.
statement_line: ContextVar[int | None] = ContextVar("qlgate_statement_line", default=None)


@dataclass(slots=True)
class CallRecord:
    table: str
    method: str
    url: str
    start: float  # seconds since the run started
    end: float | None = None
    status: int | None = None
    bytes: int = 0
    attempts: int = 1
    error: str | None = None
    source: str = "sent"  # "sent", "cache" or "coalesced"
    stale: bool | None = None  # a cache hit past its freshness (stale-while-revalidate)
    # seconds the call waited before it was sent (not call time: ``start`` is after it),
    # and why: "backoff" (its table was failing) or "retry-after" (the upstream said so)
    waited: float | None = None
    wait: str | None = None
    # seconds the call queued for its API type's limits (a call rate, calls in flight)
    # before it was sent: not call time either
    queued: float | None = None
    cancelled: bool | None = None  # the run gave it up before it was answered (``end``: when)
    line: int | None = field(default_factory=statement_line.get)  # the statement's, when a run's
    span_id: str | None = None  # the call's span, sent as its traceparent (traces on only)

    def cancel(self, at: float) -> None:
        """The run stopped waiting for this call at ``at`` (seconds since it started)."""
        self.end, self.cancelled = at, True

    @property
    def duration(self) -> float:
        return (self.end - self.start) if self.end is not None else 0.0


@dataclass
class Diagnostics:
    started: float = field(default_factory=time.perf_counter)
    finished: float | None = None
    calls: list[CallRecord] = field(default_factory=list)
    coalesced: int = 0  # identical reads of the same run made once (not in ``calls``)
    # calls its API type's limits refused before they were sent (no record in ``calls``):
    # (API type, limit) each, for the gateway's metrics; None until there is one
    refused: list[tuple[str, str]] | None = None

    def refuse(self, api: str, limit: str) -> None:
        if self.refused is None:
            self.refused = []
        self.refused.append((api, limit))

    @property
    def sent(self) -> int:
        """Calls that went upstream (not answered from the cache or by another run's call)."""
        return sum(1 for c in self.calls if c.source == "sent")

    @property
    def cache_hits(self) -> int:
        return sum(1 for c in self.calls if c.source == "cache")

    @property
    def shared(self) -> int:
        """Calls answered by an identical call of another run in flight at the time."""
        return sum(1 for c in self.calls if c.source == "coalesced")

    def finish(self) -> None:
        if self.finished is None:
            self.finished = time.perf_counter()

    @property
    def total(self) -> float:
        return (self.finished or time.perf_counter()) - self.started

    @property
    def waited(self) -> float:
        """Seconds calls waited before they were sent (back-off, ``Retry-After``)."""
        return sum(c.waited or 0.0 for c in self.calls)

    @property
    def queued(self) -> float:
        """Seconds calls queued for their API type's limits before they were sent."""
        return sum(c.queued or 0.0 for c in self.calls)

    def to_dict(self) -> dict[str, Any]:
        call_time = sum(c.duration for c in self.calls)
        total = self.total
        return {
            "total_ms": round(total * 1000, 3),
            "calls_ms": round(call_time * 1000, 3),
            "waited_ms": round(self.waited * 1000, 3),
            "queued_ms": round(self.queued * 1000, 3),
            "parallelism": round(call_time / total, 2) if total > 0 else 0,
            "coalesced": self.coalesced,
            "sent": self.sent,
            "cache_hits": self.cache_hits,
            "shared": self.shared,
            "calls": [
                {
                    **{k: v for k, v in asdict(c).items() if v is not None and k not in ("waited", "queued")},
                    **({"waited_ms": round(c.waited * 1000, 3)} if c.waited is not None else {}),
                    **({"queued_ms": round(c.queued * 1000, 3)} if c.queued is not None else {}),
                    "start_ms": round(c.start * 1000, 3),
                    "end_ms": round((c.end or c.start) * 1000, 3),
                    "duration_ms": round(c.duration * 1000, 3),
                }
                for c in self.calls
            ],
        }

    def render(self) -> str:
        """A short text table for ``qlgate run --diagnostics``."""
        d = self.to_dict()
        hits, shared = self.cache_hits, self.shared
        lines = [
            f"{self.sent} upstream call(s); script {d['total_ms']:.1f} ms, "
            f"sum of calls {d['calls_ms']:.1f} ms (parallelism ×{d['parallelism']})"
            + (f", {self.coalesced} coalesced" if self.coalesced else "")
            + (f", {hits} from cache" if hits else "")
            + (f", {shared} shared with another request" if shared else "")
            + (f", {d['waited_ms']:.1f} ms waiting (back-off, Retry-After)" if self.waited else "")
            + (f", {d['queued_ms']:.1f} ms queued for limits" if self.queued else "")
        ]
        for c in d["calls"]:
            status = c.get("status", c.get("error", "cancelled" if c.get("cancelled") else "-"))
            source = "" if c["source"] == "sent" else f"  [{c['source']}{' stale' if c.get('stale') else ''}]"
            if c.get("waited_ms") is not None:
                source += f"  [waited {c['waited_ms']:.1f} ms: {c.get('wait')}]"
            if c.get("queued_ms") is not None:
                source += f"  [queued {c['queued_ms']:.1f} ms for a limit]"
            lines.append(
                f"  {c['start_ms']:8.1f} → {c['end_ms']:8.1f} ms  {c['method']:6} {status}  "
                f"{c.get('bytes', 0):>8} B  {c['url']}{source}"
            )
        return "\n".join(lines)
