"""OpenTelemetry traces (``qlgate/server/tracing.py``): a gateway configured with an
OTLP endpoint exports, to a receiver in the test that decodes what the SDK's own
exporter posts (an ``ExportTraceServiceRequest``, protobuf, read with
opentelemetry-proto), one trace per request — request → statement → calls — whose
ids the upstream sees in its ``traceparent``, the access log names and an error
answer carries; a caller's ``traceparent`` is continued. Without the config,
none of the tracing modules is imported."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from qlgate.server.app import build_app
from qlgate.trace_context import parse_traceparent
from tests.gateway_server import GatewayTestServer

ROOT = Path(__file__).resolve().parents[2]
TABLES = {
    "items.ql": "create table shop.items on select get from '{config.base}/items?id={id}&key={config.secretKey}'",
    "fails.ql": "create table shop.broken on select get from '{config.base}/broken?id={id}'",
}
# two statements, the second a fan-out of three calls
FANOUT = 'a = select * from shop.items where id = "0";\nreturn select * from shop.items where id in ("1", "2", "3");'
CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"


class Receiver:
    """An OTLP/HTTP collector on 127.0.0.1: every span it was sent, decoded."""

    def __init__(self) -> None:
        self.spans: list[dict[str, Any]] = []
        self.service: set[str] = set()
        received = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                assert self.headers["Content-Type"] == "application/x-protobuf"
                export = ExportTraceServiceRequest()
                export.ParseFromString(body)
                received.take(export)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1/traces"

    def take(self, export: ExportTraceServiceRequest) -> None:
        for resource in export.resource_spans:
            for attribute in resource.resource.attributes:
                if attribute.key == "service.name":
                    self.service.add(attribute.value.string_value)
            for scope in resource.scope_spans:
                for span in scope.spans:
                    attributes = {a.key: _value(a.value) for a in span.attributes}
                    self.spans.append(
                        {
                            "trace": span.trace_id.hex(),
                            "id": span.span_id.hex(),
                            "parent": span.parent_span_id.hex() or None,
                            "name": span.name,
                            "kind": span.kind,
                            "start": span.start_time_unix_nano,
                            "end": span.end_time_unix_nano,
                            "attributes": attributes,
                            "error": span.status.code == 2,
                        }
                    )


def _value(value: Any) -> Any:
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind is not None else None


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    threading.Thread(target=found.server.serve_forever, daemon=True).start()
    yield found
    found.server.shutdown()
    found.server.server_close()


async def _serve(engine: Any) -> tuple[GatewayTestServer, aiohttp.ClientSession]:
    server = await GatewayTestServer(build_app(engine)).start_server()
    return server, aiohttp.ClientSession(base_url=server.make_url(""))


async def _flushed(server: GatewayTestServer) -> None:
    """What the gateway queued, posted now (in a thread: the receiver answers meanwhile)."""
    tracing = server.gateway.tracing
    assert tracing is not None
    assert await asyncio.to_thread(tracing.flush)


def _traced(engine_for: Any, receiver: Receiver) -> Any:
    config = {"secretKey": "s3cr3t-value", "traces": {"otlpEndpoint": receiver.url, "serviceName": "shop-gw"}}
    return engine_for(TABLES, config=config)


async def test_a_fan_out_is_one_trace_request_statements_calls_and_the_upstream_sees_it(
    upstream, engine_for, receiver, caplog
):
    caplog.set_level(logging.INFO, logger="qlgate.access")
    upstream.reply("GET", "/items", json_body={"id": 1})
    server, session = await _serve(_traced(engine_for, receiver))
    try:
        async with session.post("/q", data=FANOUT, headers={"Content-Type": "text/plain"}) as resp:
            assert resp.status == 200, await resp.text()
        await _flushed(server)
    finally:
        await session.close()
        await server.close()
    spans = receiver.spans
    assert receiver.service == {"shop-gw"}
    assert len({s["trace"] for s in spans}) == 1
    trace = spans[0]["trace"]
    (request,) = [s for s in spans if s["parent"] is None]
    assert request["kind"] == 2 and request["attributes"]["http.response.status_code"] == 200  # SERVER
    statements = [s for s in spans if s["parent"] == request["id"]]
    assert sorted(s["attributes"]["qlgate.line"] for s in statements) == [1, 2]
    by_line = {s["attributes"]["qlgate.line"]: s for s in statements}
    calls = [s for s in spans if s["name"] == "GET shop.items"]
    assert len(calls) == 4 and len(spans) == 1 + 2 + 4
    assert sorted(c["parent"] == by_line[2]["id"] for c in calls) == [False, True, True, True]
    for call in calls:
        assert call["kind"] == 3  # CLIENT
        assert call["attributes"]["http.response.status_code"] == 200
        assert call["attributes"]["qlgate.source"] == "sent"
        assert "s3cr3t" not in call["attributes"]["url.full"]  # the masked URL
        parent = next(s for s in spans if s["id"] == call["parent"])
        assert parent["start"] <= call["start"] <= call["end"] <= parent["end"]
        assert request["start"] <= call["start"] and call["end"] <= request["end"]
    # each upstream call carried the trace, its own span as parent
    sent = [parse_traceparent(r.headers.get("traceparent")) for r in upstream.requests]
    assert {s[0] for s in sent if s} == {trace} and len(sent) == 4
    assert {s[1] for s in sent if s} == {c["id"] for c in calls}
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "qlgate.access"]
    assert [line["trace_id"] for line in lines] == [trace]
    assert "s3cr3t" not in json.dumps(spans)


async def test_a_callers_traceparent_is_continued(upstream, engine_for, receiver):
    upstream.reply("GET", "/items", json_body={"id": 1})
    server, session = await _serve(_traced(engine_for, receiver))
    try:
        headers = {"traceparent": f"00-{CALLER_TRACE}-{CALLER_SPAN}-01"}
        async with session.get("/q", params={"s": 'return select * from shop.items where id = "1";'}, headers=headers):
            pass
        await _flushed(server)
    finally:
        await session.close()
        await server.close()
    assert {s["trace"] for s in receiver.spans} == {CALLER_TRACE}
    (request,) = [s for s in receiver.spans if s["attributes"].get("http.route") == "/q"]
    assert request["parent"] == CALLER_SPAN
    (sent,) = upstream.requests
    assert sent.headers["traceparent"].startswith(f"00-{CALLER_TRACE}-") and sent.headers["traceparent"].endswith("-01")


async def test_an_error_answer_names_its_trace_and_a_failed_call_is_an_error_span(upstream, engine_for, receiver):
    upstream.reply("GET", "/broken", json_body={"no": 1}, status=500)
    server, session = await _serve(_traced(engine_for, receiver))
    try:
        async with session.get("/q", params={"s": 'return select * from shop.broken where id = "1";'}) as resp:
            status, body = resp.status, await resp.json()
        async with session.get("/nowhere") as resp:
            missing = await resp.json()
        await _flushed(server)
    finally:
        await session.close()
        await server.close()
    assert status >= 400 and "err" in body
    traces = {s["trace"] for s in receiver.spans}
    assert body["trace_id"] in traces and missing["trace_id"] in traces and body["trace_id"] != missing["trace_id"]
    (call,) = [s for s in receiver.spans if s["name"] == "GET shop.broken"]
    assert call["error"] and call["attributes"]["http.response.status_code"] == 500


async def test_a_sample_ratio_of_zero_exports_nothing_but_still_sends_the_trace(upstream, engine_for, receiver):
    upstream.reply("GET", "/items", json_body={"id": 1})
    config = {"secretKey": "k", "traces": {"otlpEndpoint": receiver.url, "sampleRatio": 0}}
    server, session = await _serve(engine_for(TABLES, config=config))
    try:
        async with session.get("/q", params={"s": 'return select * from shop.items where id = "1";'}):
            pass
        await _flushed(server)
    finally:
        await session.close()
        await server.close()
    assert receiver.spans == []
    (sent,) = upstream.requests
    assert sent.headers["traceparent"].endswith("-00")  # not sampled: the upstream is told


@pytest.mark.parametrize(
    "value",
    [None, "", "00-" + "0" * 32 + "-00f067aa0ba902b7-01", f"00-{CALLER_TRACE}-{CALLER_SPAN}-01-extra", "zz-nonsense"],
)
def test_a_malformed_traceparent_is_ignored(value):
    assert parse_traceparent(value) is None
    assert parse_traceparent(f"00-{CALLER_TRACE}-{CALLER_SPAN}-00") == (CALLER_TRACE, CALLER_SPAN, False)


SERVE_UNTRACED = """
import asyncio, json, sys
from qlgate.engine.engine import Engine
from qlgate.server.app import build_app
from tests.gateway_server import GatewayTestServer

TRACING = ("qlgate.server.tracing", "qlgate.server.otlp")

async def main():
    engine = Engine(tables=None, config=json.loads(sys.argv[1]))
    async with GatewayTestServer(build_app(engine)) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /q?s=return%201%3B HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n")
        answer = await reader.read()
        writer.close()
    await engine.close()
    print(json.dumps({"status": answer.split(b" ")[1].decode(),
                      "traces": sorted(m for m in sys.modules if m in TRACING or m.startswith("opentelemetry"))}))

asyncio.run(main())
"""


def _served_imports(config: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", SERVE_UNTRACED, json.dumps(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_with_traces_off_no_tracing_module_is_imported():
    assert _served_imports({}) == {"status": "200", "traces": []}
    # the same request with traces on does import them: the check above can fail
    traced = _served_imports({"traces": {"otlpEndpoint": "http://127.0.0.1:1/v1/traces"}})
    assert traced == {"status": "200", "traces": ["qlgate.server.otlp", "qlgate.server.tracing"]}


def test_the_encoder_writes_what_the_official_classes_read():
    """Lengths past one varint byte, negative and large integers, doubles, non-ASCII text,
    a status: decoded by opentelemetry-proto's own ``Span``."""
    from opentelemetry.proto.trace.v1.trace_pb2 import ScopeSpans

    from qlgate.server.otlp import CLIENT, span

    values = {"long": "x" * 300, "neg": -5, "big": 1 << 40, "ms": 1.25, "text": "café ✓", "yes": True}
    encoded = span(b"\x01" * 16, b"\x02" * 8, b"\x03" * 8, "GET ✓", CLIENT, 1_000, 2_000, values, "failed: é")
    scope = ScopeSpans()
    scope.ParseFromString(encoded)
    (decoded,) = scope.spans
    assert decoded.trace_id == b"\x01" * 16 and decoded.span_id == b"\x02" * 8 and decoded.parent_span_id == b"\x03" * 8
    assert (decoded.name, decoded.kind, decoded.start_time_unix_nano, decoded.end_time_unix_nano) == (
        "GET ✓",
        CLIENT,
        1_000,
        2_000,
    )
    assert {a.key: _value(a.value) for a in decoded.attributes} == values
    assert (decoded.status.code, decoded.status.message) == (2, "failed: é")


def test_a_collector_that_is_down_costs_a_warning_and_bounded_memory(caplog):
    from qlgate.server.otlp import INTERNAL, Exporter, span

    exporter = Exporter("http://127.0.0.1:1/v1/traces", service="s", version="0", interval=3600, batch=100, limit=3)
    try:
        one = span(b"\x01" * 16, b"\x02" * 8, None, "x", INTERNAL, 1, 2, {})
        for _ in range(5):
            exporter.add(one)
        assert exporter.dropped == 2  # past the limit: dropped, counted
        with caplog.at_level(logging.WARNING, logger="qlgate.traces"):
            assert exporter.flush() is False
        assert exporter.failed == 3 and "not exported" in caplog.text
        assert exporter.flush() is True  # nothing left to send: the failed batch is not kept
    finally:
        exporter.close()
