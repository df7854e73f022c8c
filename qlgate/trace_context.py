"""A request's W3C trace context (https://www.w3.org/TR/trace-context/): its trace
id, the span id of the request's own span, the caller's span it continues, and
whether it is sampled. Made by the gateway for each request when traces are on
(``server/tracing.py``), carried by the run (``RunOptions.trace``) to the call
path, which gives each upstream call a span id of its own and sends it as the
``traceparent``'s parent — the one thing of a trace that must be known when a call
is sent; every span is built after the request, from its records.

The standard library only: the engine imports this, and a gateway with traces off
must pay for nothing more (ids are ``os.urandom`` hex: random, as the spec asks).
``tracestate`` is not carried: qlgate adds no vendor state of its own."""

from __future__ import annotations

import os
import random
import re

__all__ = ["TraceContext", "new_span_id", "parse_traceparent"]

# version 00: "00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>"; a later version
# may add fields after a dash, which a reader of 00 ignores (the spec's rule)
_TRACEPARENT = re.compile(r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?\Z")
_ZERO_TRACE, _ZERO_SPAN = "0" * 32, "0" * 16


def new_span_id() -> str:
    return os.urandom(8).hex()


def parse_traceparent(value: str | None) -> tuple[str, str, bool] | None:
    """A caller's ``traceparent`` as (trace id, parent span id, sampled), or None when
    absent or not valid (then the request starts a trace of its own, as the spec says:
    a malformed header is ignored, never an error to the caller)."""
    if not value or len(value) > 512:
        return None
    found = _TRACEPARENT.match(value.strip())
    if found is None:
        return None
    version, trace_id, parent, flags = found.groups()
    if version == "ff" or trace_id == _ZERO_TRACE or parent == _ZERO_SPAN:
        return None
    if version == "00" and len(value.strip()) != 55:  # version 00 has exactly these fields
        return None
    return trace_id, parent, bool(int(flags, 16) & 1)


class TraceContext:
    """One request's trace: ``span_id`` is the request's span, ``parent`` the caller's
    span it continues (None: the trace starts here), ``sampled`` whether its spans are
    exported (the ids are sent upstream and logged either way)."""

    __slots__ = ("parent", "sampled", "span_id", "trace_id")

    def __init__(self, trace_id: str, span_id: str, parent: str | None, sampled: bool):
        self.trace_id, self.span_id, self.parent, self.sampled = trace_id, span_id, parent, sampled

    @classmethod
    def begin(cls, traceparent: str | None, ratio: float) -> TraceContext:
        """A request's context: the caller's trace continued (its sampling decision
        kept: parent-based, as OpenTelemetry's default sampler does), or a new trace
        sampled with probability ``ratio``."""
        caller = parse_traceparent(traceparent)
        if caller is not None:
            trace_id, parent, sampled = caller
            return cls(trace_id, new_span_id(), parent, sampled)
        sampled = ratio >= 1.0 or random.random() < ratio
        return cls(os.urandom(16).hex(), new_span_id(), None, sampled)

    def header(self, span_id: str) -> str:
        """The ``traceparent`` sent with an upstream call whose span is ``span_id``."""
        return f"00-{self.trace_id}-{span_id}-{'01' if self.sampled else '00'}"
