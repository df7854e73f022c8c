"""The pipes of the processes tests start, read as they are written.

A child that writes to a pipe nobody reads blocks once the pipe's 64 KiB are full: a
gateway writing its access log stops answering, and the test that waits on it hangs
(``tests/server/test_workers.py`` once hung a clean run for 10 minutes that way).
``drain(proc)`` starts one thread per pipe of ``proc`` that reads it to the end, so the
child never blocks on it; the test reads what it said at any time (``text()``), waits
for a line (``wait_for_line``), and ``said(proc)`` gives it for a failure message.
``tests/test_hygiene.py`` checks that every ``Popen`` of a test with a pipe is drained
or communicated with. ``slowness()`` says how much slower than a quiet machine this one
starts qlgate now, for bounds that depend on it.
"""

from __future__ import annotations

import functools
import io
import os
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import IO


class Drain:
    """What a child wrote to its ``stdout`` and ``stderr`` pipes, read by threads as it comes."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self._lines: dict[str, list[str]] = {"stdout": [], "stderr": []}
        self._changed = threading.Condition()
        self._threads = [
            threading.Thread(target=self._read, args=(name, stream), daemon=True, name=f"drain-{proc.pid}-{name}")
            for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr))
            if stream is not None
        ]
        for thread in self._threads:
            thread.start()

    def _read(self, name: str, stream: IO) -> None:
        for line in iter(stream.readline, "" if isinstance(stream, io.TextIOBase) else b""):
            text = line if isinstance(line, str) else line.decode("utf-8", "replace")
            with self._changed:
                self._lines[name].append(text)
                self._changed.notify_all()
        stream.close()

    def text(self, name: str = "stderr", *, wait: float = 0.0) -> str:
        """What the child wrote to ``name`` so far; after ``wait`` seconds at most for the
        readers to reach the end (use it once the child has exited)."""
        deadline = time.monotonic() + wait
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        with self._changed:
            return "".join(self._lines[name])

    def wait_for_line(self, matches: Callable[[str], bool], timeout: float, name: str = "stderr") -> str:
        """The first line of ``name`` that ``matches``; AssertionError with what was said
        when none comes within ``timeout`` seconds or the child exits first."""
        deadline = time.monotonic() + timeout
        seen = 0
        with self._changed:
            while True:
                lines = self._lines[name]
                for line in lines[seen:]:
                    if matches(line):
                        return line
                seen = len(lines)
                left = deadline - time.monotonic()
                ended = not any(t.is_alive() for t in self._threads)
                if left <= 0 or ended:
                    said = "".join(lines)
                    raise AssertionError(f"no such line within {timeout:.0f} s (exit {self.proc.poll()}): {said}")
                self._changed.wait(min(left, 0.5))


QUIET_START_S = 0.35  # ``qlgate run -e 'return 1;'`` on a quiet 2-core machine (bench/startup.py)


@functools.cache
def slowness() -> float:
    """How many times slower than a quiet machine this one starts qlgate now (at least 1),
    measured once per session: bounds on a server's start scale with it, since under load
    the same start took ten times as long (a fixed bound failed there, not the code)."""
    began = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "qlgate", "run", "-e", "return 1;"],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        timeout=300,
        env={**os.environ, "QLGATE_EMULATOR_SERVER": "off"},
    )
    return max(1.0, (time.monotonic() - began) / QUIET_START_S)


_DRAINS: weakref.WeakKeyDictionary[subprocess.Popen, Drain] = weakref.WeakKeyDictionary()


def drain(proc: subprocess.Popen) -> Drain:
    """Read ``proc``'s pipes from now on (once per process)."""
    if proc not in _DRAINS:
        _DRAINS[proc] = Drain(proc)
    return _DRAINS[proc]


def said(proc: subprocess.Popen) -> str:
    """What ``proc`` wrote to stderr, for a failure message: from its drain when it has one
    (its pipe is the drain's), else read to the end once it has exited."""
    if proc in _DRAINS:
        return _DRAINS[proc].text(wait=1.0)
    if proc.stderr is None or proc.poll() is None:
        return f"exit status {proc.poll()}"
    return str(proc.stderr.read())
