"""OpenTelemetry traces of the gateway's requests, exported over OTLP/HTTP: a span
per request, one per statement that called upstream, and one per upstream call,
with the waterfall's timings and outcome as attributes (the masked URL only: a
``CallRecord`` never holds a secret).

Built after the fact, where the access log is written (``pipeline.answer``), from
what the run keeps anyway — its ``CallRecord``s, as the metrics are counted — so an
upstream call's own path does one thing more when traces are on (a span id and
its ``traceparent``, ``call_steps.Recorded``) and nothing when they are off. The
spans go to the SDK's ``BatchSpanProcessor``, whose thread encodes and posts them:
the event loop only builds them and appends to its queue.

Imported only when ``traces.otlpEndpoint`` is set (``app.py``, after ``require``):
a gateway without traces imports nothing of OpenTelemetry. Statement spans span
their calls (first sent to last answered): a statement that called nothing has no
span, since the run keeps no per-statement times of its own.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, TraceFlags
from opentelemetry.trace.status import Status, StatusCode

from .._version import __version__
from ..trace_context import new_span_id

if TYPE_CHECKING:
    from ..config_values import ConfigView
    from ..diagnostics import CallRecord
    from .request import Request

_SAMPLED = TraceFlags(TraceFlags.SAMPLED)
_OK = Status(StatusCode.UNSET)


class Tracing:
    """The gateway's trace export: the sampling ratio new traces are started with,
    and the processor its spans are handed to."""

    def __init__(self, exporter: SpanExporter, *, service: str = "qlgate", ratio: float = 1.0):
        self.ratio = ratio
        self._processor = BatchSpanProcessor(exporter)
        self._resource = Resource.create({"service.name": service, "service.version": __version__})
        self._scope = InstrumentationScope("qlgate", __version__)

    @classmethod
    def from_config(cls, view: ConfigView) -> Tracing:
        endpoint = view.text("traces.otlpEndpoint")
        assert endpoint is not None, "traces are on only with traces.otlpEndpoint"
        headers = {str(k): str(v) for k, v in view.entries("traces.headers").items()}
        exporter = OTLPSpanExporter(endpoint=endpoint, headers=headers or None)
        return cls(
            exporter, service=view.text("traces.serviceName") or "qlgate", ratio=view.number("traces.sampleRatio")
        )

    def finish(self, request: Request, status: int, started: float) -> None:
        """The spans of one answered request (``started``: its ``perf_counter``), handed
        to the exporter when its trace is sampled."""
        trace = request.trace
        if trace is None or not trace.sampled:
            return
        now = time.perf_counter()
        offset = time.time_ns() - int(now * 1e9)  # perf_counter seconds → epoch ns

        def ns(perf: float) -> int:
            return offset + int(perf * 1e9)

        trace_id = int(trace.trace_id, 16)
        own = SpanContext(trace_id, int(trace.span_id, 16), False, _SAMPLED)
        caller = SpanContext(trace_id, int(trace.parent, 16), True, _SAMPLED) if trace.parent else None
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
        spans = [
            self._span(
                name,
                own,
                caller,
                SpanKind.SERVER,
                ns(started),
                ns(now),
                attributes,
                _error(f"status {status}") if status >= 500 else _OK,
            )
        ]
        diagnostics = request.calls
        if diagnostics is not None and diagnostics.calls:
            base = diagnostics.started
            by_line: dict[int | None, list[CallRecord]] = {}
            for record in diagnostics.calls:
                by_line.setdefault(record.line, []).append(record)
            for line, records in by_line.items():
                parent = own
                if line is not None:  # the statement's span: its first call's start to its last one's end
                    parent = SpanContext(trace_id, int(new_span_id(), 16), False, _SAMPLED)
                    first = min(r.start for r in records)
                    last = max(r.end if r.end is not None else r.start for r in records)
                    failed = sum(1 for r in records if r.error is not None)
                    spans.append(
                        self._span(
                            f"statement line {line}",
                            parent,
                            own,
                            SpanKind.INTERNAL,
                            ns(base + first),
                            ns(base + last),
                            {"qlgate.line": line, "qlgate.calls": len(records)},
                            _error(f"{failed} call(s) failed") if failed else _OK,
                        )
                    )
                for record in records:
                    spans.append(self._call_span(record, trace_id, parent, ns, base))
        processor = self._processor
        for span in spans:
            processor.on_end(span)

    def _call_span(self, record: CallRecord, trace_id: int, parent: SpanContext, ns: Any, base: float) -> ReadableSpan:
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
        if record.error is not None:
            status = _error(record.error)  # masked when recorded
        elif record.status is not None and record.status >= 500:
            status = _error(f"status {record.status}")
        else:
            status = _OK
        end = record.end if record.end is not None else record.start
        return self._span(
            f"{record.method} {record.table}",
            SpanContext(trace_id, int(span_id, 16), False, _SAMPLED),
            parent,
            SpanKind.CLIENT if record.source == "sent" else SpanKind.INTERNAL,
            ns(base + record.start),
            ns(base + end),
            attributes,
            status,
        )

    def _span(
        self,
        name: str,
        context: SpanContext,
        parent: SpanContext | None,
        kind: SpanKind,
        start: int,
        end: int,
        attributes: dict[str, Any],
        status: Status,
    ) -> ReadableSpan:
        return ReadableSpan(
            name,
            context=context,
            parent=parent,
            resource=self._resource,
            attributes=attributes,
            kind=kind,
            status=status,
            start_time=start,
            end_time=max(start, end),
            instrumentation_scope=self._scope,
        )

    def flush(self, timeout_ms: int = 5000) -> bool:
        """Export what is queued now (blocking: tests, shutdown)."""
        return self._processor.force_flush(timeout_ms)

    async def close(self) -> None:
        """Export what is left and stop the exporter's thread (off the event loop)."""
        await asyncio.to_thread(self._processor.shutdown)


def _error(description: str) -> Status:
    return Status(StatusCode.ERROR, description)
