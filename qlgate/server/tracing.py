"""OpenTelemetry traces of the gateway's requests, exported over OTLP/HTTP: a span
per request, one per statement that called upstream, and one per upstream call,
with the waterfall's timings and outcome as attributes (the masked URL only: a
``CallRecord`` never holds a secret).

Built after the fact, where the access log is written (``pipeline.answer``), from
what the run keeps anyway — its ``CallRecord``s, as the metrics are counted — so an
upstream call's own path does one thing more when traces are on (a span id and
its ``traceparent``, ``call_steps.Recorded``) and nothing when they are off. The
spans are encoded to OTLP's protobuf as they are built (``otlp.py``: the SDK's own
span objects and encoder cost 15 times more) and posted in batches by a thread.

Imported only when ``traces.otlpEndpoint`` is set (``app.py``): a gateway without
traces imports none of it. Statement spans span
their calls (first sent to last answered): a statement that called nothing has no
span, since the run keeps no per-statement times of its own.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..trace_context import new_span_id
from .otlp import CLIENT, INTERNAL, SERVER, Exporter, span

if TYPE_CHECKING:
    from ..config_values import ConfigView
    from ..diagnostics import CallRecord
    from .request import Request


class Tracing:
    """The gateway's trace export: the sampling ratio new traces are started with,
    and the exporter its spans are handed to."""

    def __init__(self, exporter: Exporter, *, ratio: float = 1.0):
        self.ratio, self.exporter = ratio, exporter

    @classmethod
    def from_config(cls, view: ConfigView) -> Tracing:
        endpoint = view.text("traces.otlpEndpoint")
        assert endpoint is not None, "traces are on only with traces.otlpEndpoint"
        headers = {str(k): str(v) for k, v in view.entries("traces.headers").items()}
        service = view.text("traces.serviceName") or "qlgate"
        exporter = Exporter(endpoint, service=service, version=__version__, headers=headers)
        return cls(exporter, ratio=view.number("traces.sampleRatio"))

    def finish(self, request: Request, status: int, started: float) -> None:
        """The spans of one answered request (``started``: its ``perf_counter``), handed
        to the exporter when its trace is sampled."""
        trace = request.trace
        if trace is None or not trace.sampled:
            return
        now = time.perf_counter()
        offset = time.time_ns() - int(now * 1e9)  # perf_counter seconds → epoch ns
        trace_id, own = bytes.fromhex(trace.trace_id), bytes.fromhex(trace.span_id)
        name = request.route or (f"{request.method} {request.endpoint}" if request.endpoint else request.method)
        attributes: dict[str, Any] = {
            "http.request.method": request.method,
            "url.path": request.path,
            "http.response.status_code": status,
            "qlgate.request_id": request.id,
        }
        if request.endpoint:
            attributes["http.route"] = request.endpoint
        if request.principal is not None:
            attributes["qlgate.key"] = request.principal.name
        parent = bytes.fromhex(trace.parent) if trace.parent else None
        end = offset + int(now * 1e9)
        spans = [
            span(
                trace_id,
                own,
                parent,
                name,
                SERVER,
                offset + int(started * 1e9),
                end,
                attributes,
                f"status {status}" if status >= 500 else None,
            )
        ]
        diagnostics = request.calls
        if diagnostics is not None and diagnostics.calls:
            base = offset + int(diagnostics.started * 1e9)
            by_line: dict[int | None, list[CallRecord]] = {}
            for record in diagnostics.calls:
                by_line.setdefault(record.line, []).append(record)
            for line, records in by_line.items():
                above = own
                if line is not None:  # the statement's span: its first call's start to its last one's end
                    above = bytes.fromhex(new_span_id())
                    first = min(r.start for r in records)
                    last = max(r.end if r.end is not None else r.start for r in records)
                    failed = sum(1 for r in records if r.error is not None)
                    spans.append(
                        span(
                            trace_id,
                            above,
                            own,
                            f"statement line {line}",
                            INTERNAL,
                            base + int(first * 1e9),
                            base + int(last * 1e9),
                            {"qlgate.line": line, "qlgate.calls": len(records)},
                            f"{failed} call(s) failed" if failed else None,
                        )
                    )
                for record in records:
                    spans.append(_call_span(record, trace_id, above, base))
        self.exporter.add(b"".join(spans))

    def flush(self) -> bool:
        """Export what is queued now (blocking: tests, shutdown)."""
        return self.exporter.flush()

    async def close(self) -> None:
        """Export what is left and stop the exporter's thread (off the event loop)."""
        await asyncio.to_thread(self.exporter.close)


def _call_span(record: CallRecord, trace_id: bytes, parent: bytes, base: int) -> bytes:
    span_id = record.span_id or new_span_id()  # an answer not sent (cache, shared) had no traceparent
    attributes: dict[str, Any] = {
        "qlgate.table": record.table,
        "http.request.method": record.method,
        "url.full": record.url,  # masked when recorded
        "qlgate.source": record.source,
        "qlgate.bytes": record.bytes,
        "qlgate.attempts": record.attempts,
    }
    if record.status is not None:
        attributes["http.response.status_code"] = record.status
    if record.line is not None:
        attributes["qlgate.line"] = record.line
    if record.stale:
        attributes["qlgate.stale"] = True
    if record.waited is not None:
        attributes["qlgate.waited_ms"] = round(record.waited * 1000, 3)
        attributes["qlgate.wait"] = record.wait or ""
    if record.queued is not None:
        attributes["qlgate.queued_ms"] = round(record.queued * 1000, 3)
    if record.cancelled:
        attributes["qlgate.cancelled"] = True
    error = record.error  # masked when recorded
    if error is None and record.status is not None and record.status >= 500:
        error = f"status {record.status}"
    end = record.end if record.end is not None else record.start
    return span(
        trace_id,
        bytes.fromhex(span_id),
        parent,
        f"{record.method} {record.table}",
        CLIENT if record.source == "sent" else INTERNAL,
        base + int(record.start * 1e9),
        base + int(end * 1e9),
        attributes,
        error,
    )
