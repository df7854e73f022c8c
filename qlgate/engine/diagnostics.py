"""What a run did upstream: each call's method, URL (secrets masked), status,
bytes and timing, and the script's wall time against the sum of call times —
the difference is what parallelism bought.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any


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

    @property
    def duration(self) -> float:
        return (self.end - self.start) if self.end is not None else 0.0


@dataclass
class Diagnostics:
    started: float = field(default_factory=time.perf_counter)
    finished: float | None = None
    calls: list[CallRecord] = field(default_factory=list)
    coalesced: int = 0

    def finish(self) -> None:
        if self.finished is None:
            self.finished = time.perf_counter()

    @property
    def total(self) -> float:
        return (self.finished or time.perf_counter()) - self.started

    def to_dict(self) -> dict[str, Any]:
        call_time = sum(c.duration for c in self.calls)
        total = self.total
        return {
            "total_ms": round(total * 1000, 3),
            "calls_ms": round(call_time * 1000, 3),
            "parallelism": round(call_time / total, 2) if total > 0 else 0,
            "coalesced": self.coalesced,
            "calls": [
                {
                    **{k: v for k, v in asdict(c).items() if v is not None},
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
        lines = [
            f"{len(self.calls)} upstream call(s); script {d['total_ms']:.1f} ms, "
            f"sum of calls {d['calls_ms']:.1f} ms (parallelism ×{d['parallelism']})"
            + (f", {self.coalesced} coalesced" if self.coalesced else "")
        ]
        for c in d["calls"]:
            status = c.get("status", c.get("error", "-"))
            lines.append(
                f"  {c['start_ms']:8.1f} → {c['end_ms']:8.1f} ms  {c['method']:6} {status}  "
                f"{c.get('bytes', 0):>8} B  {c['url']}"
            )
        return "\n".join(lines)
