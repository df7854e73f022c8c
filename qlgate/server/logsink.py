"""Where the gateway's log lines go: a bounded buffer, written to the stream
(stderr) by a thread of its own, never by the event loop.

A write to a pipe or a terminal blocks once whoever reads it falls behind (a
slow log collector, a paused terminal, ``| tee`` on a busy disk, a test that
reads its child's stderr only at the end). Written from the loop, that stops
every request of the process, and SIGTERM with them. Here the loop only
appends a line to a deque under a lock; the writer thread takes the lines in
batches. When the buffer is full, new lines are dropped and counted, and the
count is written (``"dropped": N``) as soon as the stream takes lines again:
a log that cannot keep up loses lines, never the gateway.

Both the access log (``AccessLog``) and the ``logging`` records of a serving
process (``LogSinkHandler``) go through one sink, so the stream has one
writer and lines never interleave.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import TextIO

from ..values import dump_json

MAX_LINES = 10_000  # held at most; beyond that, lines are dropped and counted
BATCH_LINES = 256  # written at a time
LINGER_S = 0.2  # a line waits at most this long for others to share its write


class LogSink:
    """One stream's writer thread and its bounded buffer."""

    def __init__(self, stream: TextIO, *, max_lines: int = MAX_LINES) -> None:
        self.stream = stream
        self.max_lines = max_lines
        self.dropped = 0  # since the last report
        self.dropped_total = 0
        self.written = 0
        self._lines: deque[str] = deque()
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._idle = threading.Condition(self._lock)
        self._writing = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="qlgate-log", daemon=True)
        self._thread.start()

    def write(self, line: str) -> None:
        """Queue one line (without its newline); never blocks on the stream."""
        with self._lock:
            if self._closed:
                return
            if len(self._lines) >= self.max_lines:
                self.dropped += 1
                self.dropped_total += 1
                return
            self._lines.append(line)
            if len(self._lines) == 1 or len(self._lines) >= BATCH_LINES:
                self._wake.notify()

    def flush(self, timeout: float = 1.0) -> bool:
        """Wait up to ``timeout`` seconds for what is queued to be written; False if
        the stream did not take it in time (the lines stay queued)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            self._wake.notify()
            while self._lines or self._writing:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def close(self, timeout: float = 1.0) -> None:
        """Write what is queued (for up to ``timeout`` s), then stop the thread. A
        stream that blocks longer keeps its daemon thread; the process exits anyway."""
        self.flush(timeout)
        with self._lock:
            self._closed = True
            self._wake.notify()
        self._thread.join(timeout=0.1)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._lines and not self._closed:
                    self._idle.notify_all()
                    self._wake.wait()
                if self._closed and not self._lines:
                    self._idle.notify_all()
                    return
                if len(self._lines) < BATCH_LINES and not self._closed:
                    self._wake.wait(LINGER_S)  # let a few more lines share this write
                batch = [self._lines.popleft() for _ in range(min(BATCH_LINES, len(self._lines)))]
                dropped, self.dropped = self.dropped, 0
                self._writing = True
            if dropped:
                batch.append(dump_json({"time": _now(), "log": "dropped", "dropped": dropped}))
            try:
                self.stream.write("\n".join(batch) + "\n")
                self.stream.flush()
                self.written += len(batch)
            except (OSError, ValueError):  # the stream is closed or gone: the lines are lost, the gateway is not
                pass
            finally:
                with self._lock:
                    self._writing = False
                    if not self._lines:
                        self._idle.notify_all()


def _now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"


class LogSinkHandler(logging.Handler):
    """A ``logging`` handler that formats on the caller's thread and queues the
    line in a ``LogSink``: a serving process's log records never block its loop."""

    def __init__(self, sink: LogSink, level: int = logging.NOTSET) -> None:
        super().__init__(level)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.sink.write(self.format(record))
        except Exception:  # noqa: BLE001 - a record that cannot be formatted: logging's own report
            self.handleError(record)
