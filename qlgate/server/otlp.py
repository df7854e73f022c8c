"""OTLP/HTTP trace export, written by hand: spans encoded straight to the protobuf
wire format of ``opentelemetry.proto.trace.v1`` (a span is a few length-prefixed
fields), queued as bytes, and posted in batches by one thread with the standard
library's HTTP client.

Why not the SDK: with it, a traced request cost +74 % CPU on a unique ``select *``
(``bench/traces.py``: 24 µs to build its ``ReadableSpan``s, 87 µs for the SDK's
encoder, the rest its thread contending for the GIL); building the same bytes
here is a few µs. The wire format is OTLP's stable 1.x protobuf, and
``tests/server/test_traces.py`` decodes what this posts with the official
``opentelemetry-proto`` classes.
"""

from __future__ import annotations

import logging
import struct
import threading
import urllib.request
from collections.abc import Mapping
from typing import Any

log = logging.getLogger("qlgate.traces")

SERVER, CLIENT, INTERNAL = 2, 3, 1  # Span.SpanKind
ERROR = 2  # Status.StatusCode
_DOUBLE = struct.Struct("<d")
_FIXED64 = struct.Struct("<Q")


_SMALL = [bytes((n,)) for n in range(0x80)]  # a varint below 128 is its own byte


def _varint(n: int) -> bytes:
    if n < 0x80:
        return _SMALL[n]
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _field(tag: int, payload: bytes) -> bytes:
    """A length-delimited field (``tag``: its key byte, field number << 3 | 2)."""
    size = len(payload)
    return (bytes((tag, size)) if size < 0x80 else bytes((tag,)) + _varint(size)) + payload


def _value(value: Any) -> bytes:
    """An ``AnyValue``: string 1, bool 2, int 3, double 4."""
    if isinstance(value, bool):
        return b"\x10\x01" if value else b"\x10\x00"
    if isinstance(value, int):
        return b"\x18" + _varint(value & 0xFFFFFFFFFFFFFFFF)
    if isinstance(value, float):
        return b"\x21" + _DOUBLE.pack(value)
    return _field(0x0A, str(value).encode("utf-8", "replace"))


# a span attribute's KeyValue, encoded once, for the names and values that repeat (a method, a
# table, a status, a line): most of a request's attributes. A URL or an id is encoded each time
_PAIRS: dict[tuple[str, Any], bytes] = {}
_PAIRS_MAX = 4096


def attributes(tag: int, values: Mapping[str, Any]) -> bytes:
    """``KeyValue``s (key 1, value 2) as repeated field ``tag``."""
    return b"".join(
        _field(tag, _field(0x0A, key.encode()) + _field(0x12, _value(value))) for key, value in values.items()
    )


def span_attributes(values: Mapping[str, Any]) -> bytes:
    """A span's attributes (field 9), repeating ones from ``_PAIRS``."""
    out = []
    pairs = _PAIRS
    for item in values.items():
        encoded = pairs.get(item)
        if encoded is None:
            key, value = item
            encoded = _field(0x4A, _field(0x0A, key.encode()) + _field(0x12, _value(value)))
            if len(pairs) < _PAIRS_MAX and (type(value) is int or (type(value) is str and len(value) <= 32)):
                pairs[item] = encoded
        out.append(encoded)
    return b"".join(out)


def span(
    trace_id: bytes,
    span_id: bytes,
    parent: bytes | None,
    name: str,
    kind: int,
    start_ns: int,
    end_ns: int,
    values: Mapping[str, Any],
    error: str | None = None,
) -> bytes:
    """One ``Span``, as an entry of ``ScopeSpans.spans`` (field 2)."""
    body = [b"\x0a\x10", trace_id, b"\x12\x08", span_id]
    if parent is not None:
        body += (b"\x22\x08", parent)
    body += (
        _field(0x2A, name.encode("utf-8", "replace")),
        b"\x30",
        _varint(kind),
        b"\x39",
        _FIXED64.pack(start_ns),
        b"\x41",
        _FIXED64.pack(max(start_ns, end_ns)),
        span_attributes(values),
    )
    if error is not None:  # Status (15): message 2, code 3
        body.append(_field(0x7A, _field(0x12, error.encode("utf-8", "replace")) + b"\x18" + _varint(ERROR)))
    return _field(0x12, b"".join(body))


class Exporter:
    """Spans queued as encoded bytes and posted, a batch a ``interval`` seconds (or
    sooner when ``batch`` requests' spans wait), by one daemon thread. At most
    ``limit`` requests' spans wait: past that, new ones are dropped and counted (a
    collector that is down must not grow the gateway's memory)."""

    def __init__(
        self,
        endpoint: str,
        *,
        service: str,
        version: str,
        headers: Mapping[str, str] | None = None,
        interval: float = 1.0,
        batch: int = 512,
        limit: int = 8192,
        timeout: float = 10.0,
    ):
        self.endpoint, self.timeout = endpoint, timeout
        self.headers = {"Content-Type": "application/x-protobuf", **(headers or {})}
        resource = _field(0x0A, attributes(0x0A, {"service.name": service, "service.version": version}))
        self._resource = resource
        self._scope = _field(0x0A, _field(0x0A, b"qlgate") + _field(0x12, version.encode()))
        self.interval, self.batch, self.limit = interval, batch, limit
        self.dropped = self.failed = 0
        self._pending: list[bytes] = []
        self._wake = threading.Event()
        self._lock = threading.Lock()  # one post at a time (the thread's, a flush's)
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="qlgate-otlp", daemon=True)
        self._thread.start()

    def add(self, spans: bytes) -> None:
        """One request's spans (``span``'s bytes, joined): called on the event loop."""
        pending = self._pending
        if len(pending) >= self.limit:
            self.dropped += 1
            return
        pending.append(spans)
        if len(pending) == self.batch:
            self._wake.set()

    def _run(self) -> None:
        while not self._closed:
            self._wake.wait(self.interval)
            self._wake.clear()
            self.flush()

    def flush(self) -> bool:
        """Post what waits now; False when the collector refused it or could not be reached."""
        with self._lock:
            pending, self._pending = self._pending, []
            if not pending:
                return True
            scope_spans = _field(0x12, self._scope + b"".join(pending))
            body = _field(0x0A, self._resource + scope_spans)
            request = urllib.request.Request(self.endpoint, data=body, headers=self.headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                    answer.read()
                return True
            except (OSError, ValueError) as error:  # urllib's HTTPError and URLError are OSErrors
                self.failed += len(pending)
                log.warning("traces: %d request(s)' spans not exported to %s: %s", len(pending), self.endpoint, error)
                return False

    def close(self) -> None:
        """Post what is left and stop the thread (blocking: run off the event loop)."""
        self._closed = True
        self._wake.set()
        self._thread.join(self.timeout + 1)
        self.flush()
