"""The supervisor behind ``qlgate serve --workers N``: N forked processes serve
one port (SO_REUSEPORT), and this parent keeps N of them alive.

- A worker that dies — killed, out of memory, crashed — is started again in its
  place (same index: the first one runs the embedded jobs) half a second later.
  One that dies again soon after its start waits twice as long each time
  (``Backoff``), so a crash loop costs a start every half minute at worst, not a
  spinning core; a worker that served a minute starts the count afresh.
- Until the gateway has listened once, a worker that dies before it listens
  stops them all and ends ``serve`` with an error (``GatewayDidNotStart``): a
  port already taken or a broken tables tree fails loudly at start, as a
  single-process gateway does, rather than retrying for ever.
- SIGTERM or SIGINT stops them all: each worker gets SIGTERM (it drains its
  in-flight requests), and whatever still runs ``stop_timeout`` seconds after the
  signal is killed. A further signal while they stop kills them at once.

The parent only forks, waits and signals; it opens nothing a worker uses, so a
worker started an hour later is the same as the first.
"""

from __future__ import annotations

import logging
import os
import signal
import struct
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from typing import Any

from ..errors import QlError

log = logging.getLogger("qlgate.server")

# a worker's body: its index and the function it calls once it serves
Target = Callable[[int, Callable[[], None]], Any]

_PID = struct.Struct("!I")  # a ready report: the worker's pid, one atomic pipe write
STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}


class GatewayDidNotStart(QlError):
    """A worker died before any had listened: the command's error, not a restart."""


class ReadyReport:
    """A worker's ``ready``: called once it listens, it tells the supervisor.
    ``restart``: the gateway had listened before this worker started, so it
    replaces one that died (and says nothing the first one already said).
    ``first()``: whether this worker is the first to listen, which says what the
    gateway is (the banner): the workers start together but not at the same pace,
    and the port answers as soon as any of them listens."""

    def __init__(self, fd: int, *, restart: bool, first_fd: int | None = None) -> None:
        self.fd = fd
        self.restart = restart
        self.first_fd = first_fd  # a pipe holding one byte: whoever reads it is first

    def __call__(self) -> None:
        os.write(self.fd, _PID.pack(os.getpid()))

    def first(self) -> bool:
        if self.restart or self.first_fd is None:
            return False
        try:
            return os.read(self.first_fd, 1) == b"1"
        except BlockingIOError:  # taken by another worker
            return False


@dataclass(frozen=True)
class Backoff:
    """How long a dead worker's slot waits before its next start: ``first``, then
    doubling for each death in a row that came within ``stable`` seconds of its
    start, up to ``most``. A worker that served ``stable`` seconds resets it."""

    first: float = 0.5
    most: float = 30.0
    stable: float = 60.0

    def delay(self, deaths_in_a_row: int) -> float:
        return min(self.most, self.first * 2 ** max(0, deaths_in_a_row - 1))


@dataclass
class _Slot:
    index: int
    process: BaseProcess
    started: float
    ready: bool = False
    deaths_in_a_row: int = 0


class Supervisor:
    """Runs ``target(index, ready)`` in ``count`` forked processes until a signal."""

    def __init__(
        self,
        target: Target,
        count: int,
        *,
        name: str = "worker",
        stop_timeout: float = 40.0,
        backoff: Backoff | None = None,
    ) -> None:
        self.target = target
        self.count = count
        self.name = name
        self.stop_timeout = stop_timeout
        self.backoff = backoff or Backoff()
        self.slots: dict[int, _Slot] = {}
        self._restart_at: dict[int, tuple[float, int]] = {}  # index → (when, deaths in a row)
        self._listened = False
        self._signals = 0
        self._context = get_context("fork")

    def run(self) -> int:
        """Start the workers and keep them up until SIGTERM/SIGINT (then exit status
        0); raises ``GatewayDidNotStart`` when they cannot start, all stopped."""
        self._wake_r, self._wake_w = os.pipe()
        self._ready_r, self._ready_w = os.pipe()
        self._first_r, first_w = os.pipe()  # one byte, for the first worker that listens
        os.write(first_w, b"1")
        os.close(first_w)
        os.set_blocking(self._first_r, False)
        previous = {signum: signal.signal(signum, self._on_signal) for signum in STOP_SIGNALS}
        try:
            for index in range(self.count):
                self._start(index, deaths_in_a_row=0)
            while not self._signals:
                self._watch()
            return 0
        finally:
            self._stop()
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            for fd in (self._wake_r, self._wake_w, self._ready_r, self._ready_w, self._first_r):
                os.close(fd)

    # ------------------------------------------------------------------ one turn of the loop

    def _watch(self) -> None:
        """Wait for a death, a ready report, a signal or a restart that is due, and
        handle it."""
        now = time.monotonic()
        for index, (when, deaths) in list(self._restart_at.items()):
            if when <= now:
                del self._restart_at[index]
                self._start(index, deaths_in_a_row=deaths)
        timeout = min((when for when, _ in self._restart_at.values()), default=None)
        by_sentinel = {slot.process.sentinel: slot for slot in self.slots.values()}
        ready = wait([*by_sentinel, self._ready_r, self._wake_r], None if timeout is None else timeout - now)
        if self._wake_r in ready:
            os.read(self._wake_r, 64)
        if self._ready_r in ready:  # before the deaths: a worker may report and die in one turn
            self._read_ready_reports()
        for sentinel, slot in by_sentinel.items():
            if sentinel in ready and not self._signals:
                self._on_death(slot)

    def _on_death(self, slot: _Slot) -> None:
        slot.process.join()
        del self.slots[slot.index]
        if not slot.ready and wait([self._ready_r], 0):
            self._read_ready_reports()
        if not slot.ready and not self._listened:
            raise GatewayDidNotStart(
                f"{self.name} {slot.index} (pid {slot.process.pid}, {_how(slot.process.exitcode)}) "
                "before it listened: not restarted"
            )
        served = time.monotonic() - slot.started
        deaths = 1 if slot.ready and served >= self.backoff.stable else slot.deaths_in_a_row + 1
        delay = self.backoff.delay(deaths)
        log.warning(
            "%s %d (pid %s) %s after %.1f s; starting another in %.1f s",
            self.name,
            slot.index,
            slot.process.pid,
            _how(slot.process.exitcode),
            served,
            delay,
        )
        self._restart_at[slot.index] = (time.monotonic() + delay, deaths)

    def _read_ready_reports(self) -> None:
        data = os.read(self._ready_r, 4096)
        by_pid = {slot.process.pid: slot for slot in self.slots.values()}
        for (pid,) in _PID.iter_unpack(data[: len(data) - len(data) % _PID.size]):
            if pid in by_pid:
                by_pid[pid].ready = True
                self._listened = True

    # ------------------------------------------------------------------ starting and stopping

    def _start(self, index: int, *, deaths_in_a_row: int) -> None:
        process = self._context.Process(target=self._child, args=(index,), name=f"qlgate-{self.name}-{index}")
        # a stop signal held back across the fork: the parent's handler must never run in the child
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        self.slots[index] = _Slot(index, process, time.monotonic(), deaths_in_a_row=deaths_in_a_row)

    def _child(self, index: int) -> None:
        """In the forked worker: the default signal actions back (the worker's own
        server installs its handlers), then a signal held since the fork acts; of
        the parent's pipes only the one it reports on."""
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        for fd in (self._wake_r, self._wake_w, self._ready_r):
            os.close(fd)
        try:
            self.target(index, ReadyReport(self._ready_w, restart=self._listened, first_fd=self._first_r))
        except QlError as error:  # a port taken since the check, a bad config: one line, not a traceback
            log.error("%s %d: %s", self.name, index, error.message)
            sys.exit(1)

    def _on_signal(self, signum: int, _frame: Any) -> None:
        self._signals += 1
        if self._signals == 1:
            log.info("%s: stopping %d %s process(es)", signal.Signals(signum).name, len(self.slots), self.name)
        os.write(self._wake_w, b"\0")  # wakes the loop, which waits on this pipe too

    def _stop(self) -> None:
        """SIGTERM to every worker; SIGKILL to any left at the bound or on a further signal."""
        self._restart_at.clear()
        kill_at = self._signals + 1
        deadline = time.monotonic() + self.stop_timeout
        for slot in self.slots.values():
            _send(slot.process, signal.SIGTERM)
        while self.slots:
            left = deadline - time.monotonic()
            if left <= 0 or self._signals >= kill_at:
                for slot in self.slots.values():
                    log.warning("%s %d (pid %s) still running: killed", self.name, slot.index, slot.process.pid)
                    _send(slot.process, signal.SIGKILL)
                    slot.process.join()
                self.slots.clear()
                break
            by_sentinel = {slot.process.sentinel: slot for slot in self.slots.values()}
            ready = wait([*by_sentinel, self._wake_r], left)
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
            for sentinel, slot in by_sentinel.items():
                if sentinel in ready:
                    slot.process.join()
                    del self.slots[slot.index]


def _send(process: BaseProcess, signum: int) -> None:
    try:
        if process.pid is not None and process.exitcode is None:
            os.kill(process.pid, signum)
    except ProcessLookupError:
        pass


def _how(exitcode: int | None) -> str:
    """A worker's end in words: its exit status, or the signal that killed it."""
    if exitcode is not None and exitcode < 0:
        return f"killed by {signal.Signals(-exitcode).name}"
    return f"exited with status {exitcode}"
