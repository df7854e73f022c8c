"""However a client's bytes are cut, the answers are the same (hypothesis): a
sequence of pipelined requests for every kind of endpoint (``/q`` by query,
text, form and chunked body; a route; the describe endpoints; the console's
files; the jobs API; a 404, a 405, a HEAD), sent whole and then split at
arbitrary byte boundaries into writes of arbitrary sizes, gets the same
statuses and bodies in the same order. The connection reads whatever a read
brings; nothing about a request may depend on where the reads fell."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qlgate.engine.engine import Engine
from qlgate.jobs.factory import open_job_backend
from qlgate.server.app import build_app
from qlgate.server.server import serving

ROUTES = {"c.ql": "return {\"q\": \"{q}\", \"n\": 2} via route '/c?q={q}' using method get;"}


def _request(method: str, target: str, body: bytes | None = None, *headers: str, chunked: bool = False) -> bytes:
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1", *headers]
    if body is not None and chunked:
        lines.append("Transfer-Encoding: chunked")
        half = len(body) // 2
        framed = b"".join(f"{len(p):x}\r\n".encode() + p + b"\r\n" for p in (body[:half], body[half:]) if p)
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + framed + b"0\r\n\r\n"
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


REQUESTS = [
    _request("GET", "/q?s=return%20%5B1%2C%202%5D%3B"),
    _request("POST", "/q", b'return {"a": "b"};', "Content-Type: text/plain"),
    _request("POST", "/q", b"s=return+3%3B", "Content-Type: application/x-www-form-urlencoded"),
    _request("POST", "/q", b"return 'chunked';", "Content-Type: text/plain", chunked=True),
    _request("GET", "/c?q=hello"),
    _request("GET", "/health?x=1"),
    _request("GET", "/routes"),
    _request("GET", "/console/static/state.js"),
    _request("POST", "/jobs", b'{"no": "script"}', "Content-Type: application/json"),
    _request("GET", "/jobs/123456"),
    _request("GET", "/rates"),
    _request("GET", "/nope"),
    _request("DELETE", "/tables"),
    _request("HEAD", "/c?q=head"),
    _request("POST", "/q", b"return 1 +;", "Content-Type: text/plain"),  # a syntax error, 400
]


@pytest.fixture(scope="module")
def gateway(tmp_path_factory) -> Iterator[int]:
    """A gateway with every endpoint, served from a thread of its own for the module's
    tests: its port."""
    root = tmp_path_factory.mktemp("pipelining")
    for name, files in (("tables", {}), ("routes", ROUTES)):
        (root / name).mkdir()
        for file, text in files.items():
            (root / name / file).write_text(text)
    ready: list[int] = []
    stop = threading.Event()

    async def main() -> None:
        engine = Engine(tables=root / "tables", routes=root / "routes", config={"jobs": {"database": str(root / "j")}})
        jobs, stop_jobs = open_job_backend(SimpleNamespace(zookeeper=None), engine, runs_jobs=False)
        app = build_app(engine, jobs=jobs)
        app.on_close(stop_jobs)
        async with serving(app) as server:
            ready.append(server.port)
            while not stop.is_set():
                await asyncio.sleep(0.05)

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not ready:
        assert time.monotonic() < deadline and thread.is_alive(), "the gateway did not start"
        time.sleep(0.02)
    yield ready[0]
    stop.set()
    thread.join(10)


def _answers(port: int, writes: list[bytes], heads: list[bool]) -> list[tuple[int, bytes]]:
    """Send ``writes`` one by one (each its own send, a pause between), then read one
    answer per request (``heads``: which were HEADs, whose answers have no body): their
    statuses and bodies."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for data in writes:
            conn.sendall(data)
            time.sleep(0.0005)
        file = conn.makefile("rb")
        found = []
        for head_only in heads:
            status_line = file.readline()
            length = 0
            while (line := file.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            found.append((int(status_line.split()[1]), b"" if head_only else file.read(length)))
        return found


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    picks=st.lists(st.integers(0, len(REQUESTS) - 1), min_size=1, max_size=8),
    cuts=st.lists(st.integers(1, 400), min_size=0, max_size=30),
)
def test_answers_do_not_depend_on_where_the_reads_fall(gateway, picks, cuts):
    sequence = [REQUESTS[i] for i in picks]
    heads = [r.startswith(b"HEAD ") for r in sequence]
    whole = b"".join(sequence)
    expected = _answers(gateway, [whole], heads)
    writes, at = [], 0
    for size in cuts:
        if at >= len(whole):
            break
        writes.append(whole[at : at + size])
        at += size
    if at < len(whole):
        writes.append(whole[at:])
    assert _answers(gateway, writes, heads) == expected
    # and each request alone gets the answer it got in the sequence
    for index, request in enumerate(sequence):
        assert _answers(gateway, [request], [heads[index]]) == [expected[index]]
