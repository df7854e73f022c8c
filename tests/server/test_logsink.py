"""The log sink (``qlgate/server/logsink.py``): a gateway whose stderr nobody reads
keeps answering, drops and counts the lines it cannot write, and stops on
SIGTERM. Before, the access log was written from the event loop with a
blocking write: once the pipe was full every worker stopped in the write and
SIGTERM no longer stopped it."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from qlgate.server.logsink import LogSink
from tests.processes import slowness
from tests.sandbox.test_cli import free_port


class _Blocked(io.StringIO):
    """A stream whose writes block until it is let go."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def write(self, text: str) -> int:
        self.gate.wait()
        return super().write(text)


def test_lines_queue_without_blocking_and_are_dropped_and_counted_when_full():
    stream = _Blocked()
    sink = LogSink(stream, max_lines=100)
    started = time.perf_counter()
    for n in range(1000):
        sink.write(f"line {n}")
    assert time.perf_counter() - started < 0.5  # never waited on the stream
    assert sink.dropped_total >= 899
    stream.gate.set()
    assert sink.flush(5)
    sink.write("after")
    sink.close(5)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "line 0" and "after" in lines
    dropped = [json.loads(line) for line in lines if line.startswith("{")]
    assert dropped and sum(d["dropped"] for d in dropped) == sink.dropped_total


def test_a_closed_stream_loses_lines_not_the_writer():
    stream = io.StringIO()
    sink = LogSink(stream)
    stream.close()
    sink.write("lost")
    assert sink.flush(2)
    sink.close(1)


def _get(url: str, timeout: float = 5.0) -> tuple[int, float]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        answer.read()
        return answer.status, time.perf_counter() - started


def test_a_gateway_whose_stderr_is_not_read_keeps_serving_and_stops_on_sigterm(tmp_path):
    (tmp_path / "tables").mkdir()
    (tmp_path / "routes").mkdir()
    (tmp_path / "config.json").write_text("{}")
    port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "1"),
            *("--tables", str(tmp_path / "tables"), "--routes", str(tmp_path / "routes")),
            *("--config", str(tmp_path / "config.json")),
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,  # never read: the pipe fills after a few hundred lines (the test)
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30 * slowness()
        while True:
            try:
                _, before = _get(base + "/health", 1)
                before = max(before, _get(base + "/health")[1])  # what one answer takes here, now
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the gateway did not start"
                time.sleep(0.1)
        # ~3,000 access-log lines of ~250 bytes: ten times what a pipe holds unread
        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(lambda n: _get(f"{base}/health?n={n}")[0], range(3000)))
        assert statuses == [200] * 3000
        status, took = _get(base + "/health")
        # a loop blocked on the full pipe would not answer at all (5 s, then an error); the
        # bound is what an answer took before the flood, with room, not a fixed second
        assert status == 200 and took < max(1.0, 20 * before), (took, before)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)  # the drain, and at most the log sink's close bound
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stderr.close()


async def test_a_second_sigterm_during_the_drain_stops_the_gateway_at_once(tmp_path, upstream):
    """The first SIGTERM drains: a request in flight may take its time (here a 20 s
    upstream). An operator who signals again means now."""
    upstream.reply("GET", "/slow", json_body={"ok": 1}, delay=20)
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "slow.ql").write_text("create table slow on select get from '{config.base}/slow'")
    (tmp_path / "routes").mkdir()
    (tmp_path / "config.json").write_text(json.dumps({"base": upstream.base}))
    port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "1"),
            *("--tables", str(tmp_path / "tables"), "--routes", str(tmp_path / "routes")),
            *("--config", str(tmp_path / "config.json")),
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    loop = asyncio.get_running_loop()
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                await loop.run_in_executor(None, _get, base + "/health", 1)
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the gateway did not start"
                await asyncio.sleep(0.1)
        slow = loop.run_in_executor(None, _get, base + "/q?s=return%20select%20*%20from%20slow%3B", 30)
        while not upstream.requests:  # the request is in flight
            await asyncio.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        await asyncio.sleep(1.0)
        assert proc.poll() is None  # draining: the request in flight may finish
        proc.send_signal(signal.SIGTERM)
        started = time.monotonic()
        await loop.run_in_executor(None, proc.wait, 10)
        assert time.monotonic() - started < 5 and proc.returncode == 1
        with contextlib.suppress(OSError):
            await slow  # cut off with the process
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
