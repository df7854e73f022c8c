"""A worker's lease: proof, from its own clock, that its ZooKeeper session is
still alive — so that it calls a partner API only while the limiter still
counts its runs.

ZooKeeper keeps a session while it hears from the client: the server expires
it once ``T`` (the negotiated session timeout) has passed since the last
request it received, rounded up to its tick — never sooner. A request we
*sent* at ``s`` and that was answered on the same session reached the server
after ``s``, so the session lives at least until ``s + T``. The lease is::

    lease end = s + T - margin,   margin = max(T / 5, MIN_MARGIN_S)

where ``s`` is the send time of the latest answered probe (a small read sent
every ``T / 10``). The margin covers what a client cannot measure: the two
clocks' rates (a drift of 0.1 % is 10 ms on 10 s), the moment between a call's
check and its bytes leaving the socket, and a garbage collection in between.
With the default ``T = 10 s`` a healthy worker's lease reaches 7-8 s ahead
and is renewed every second; cut off, it ends 8 s after its last answered
probe, at least 2 s before the server could drop the session.

What the worker does with it (``worker.py``):

- every upstream call of a run checks the lease just before it is sent
  (``FencedGate``); while the connection is ``SUSPENDED`` calls wait, since
  the session may come back; once the lease has ended they fail;
- when the lease ends, or the session is ``LOST``, the runs in hand are
  cancelled — calls in flight are aborted — and their outcomes dropped, each
  with a WARNING;
- a run is bound to the session it was handed over on: a lease renewed on a
  new session never covers it;
- a process that was stopped (SIGSTOP, a VM pause) finds its lease over when it
  resumes, as the monotonic clock kept running: it proves its session again
  with a fresh probe before a single further call.

The limiter re-grants a dead worker's slots only after its session has ended
*and* the worker's per-call deadline (``jobs.callTimeout``) has passed since,
so a call sent just before a freeze has finished or been abandoned by then
(``limiter.py``). What no client-side scheme covers: a partner API that keeps
processing a call after the caller has given up on it. A deployer makes that
impossible by keeping the partner's own processing timeout below
``jobs.callTimeout`` (or by making the calls idempotent).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from collections.abc import Awaitable, Callable

from kazoo.client import KazooClient, KazooState

log = logging.getLogger("qlgate.jobs.lease")
MIN_MARGIN_S = 0.2
PROBES_PER_TIMEOUT = 10
SUSPENDED_POLL_S = 0.02


class RunFence:
    """A run's side of the lease: the session the run was handed over on, and whether a
    call of the run was ever refused. Set in the run's task (``run_fence``), inherited
    by every task the engine starts for its calls."""

    __slots__ = ("refused", "session")

    def __init__(self, session: int | None) -> None:
        self.session = session
        self.refused = False


run_fence: contextvars.ContextVar[RunFence | None] = contextvars.ContextVar("qlgate_run_fence", default=None)


class LeaseExpired(Exception):
    """A run's call refused: the worker cannot prove its session still holds the run's slots."""


class SessionLease:
    def __init__(self, client: KazooClient, *, probe_path: str = "/", clock: Callable[[], float] = time.monotonic):
        self.client = client
        self.probe_path = probe_path
        self.clock = clock
        self._until = 0.0  # the lease's end, on ``clock``
        self._session: int | None = None  # the session it was proved on
        self._suspended = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._revoked = False  # stopping: no call passes, no probe renews
        self._poke = threading.Event()
        self._on_end: list[Callable[[str], None]] = []
        self._ended_reported = True  # no lease yet: nothing to report ending
        self._thread = threading.Thread(target=self._beat, name="session-lease", daemon=True)
        client.add_listener(self._on_state)

    # ------------------------------------------------------------------ arithmetic
    @property
    def timeout(self) -> float:
        """T: the shorter of the session timeout asked for and the one the server granted
        (known to clients made by ``session.zk_client``)."""
        asked = self.client._session_timeout / 1000
        granted = getattr(self.client, "negotiated_timeout", None)
        return min(asked, granted) if granted else asked

    @property
    def margin(self) -> float:
        return max(self.timeout / 5, MIN_MARGIN_S)

    @property
    def probe_interval(self) -> float:
        return self.timeout / PROBES_PER_TIMEOUT

    # ------------------------------------------------------------------ life
    def start(self) -> SessionLease:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Revoke the lease and stop probing: from now on every call is refused. A
        worker does this before it lets go of its registration, so that no call of a
        run can still pass once the limiter starts counting towards a re-grant."""
        with self._lock:
            self._revoked, self._until = True, 0.0
        self._stop.set()
        self._poke.set()

    def on_end(self, callback: Callable[[str], None]) -> None:
        """``callback(reason)`` runs (on the lease's thread or kazoo's) when the lease
        ends with no renewal: the worker cancels its runs in hand."""
        self._on_end.append(callback)

    # ------------------------------------------------------------------ reading
    @property
    def session(self) -> int | None:
        return self._session

    def remaining(self, session: int | None = None) -> float:
        """Seconds the lease has left (0 when over), for ``session`` if given."""
        with self._lock:
            if session is not None and session != self._session:
                return 0.0
            return max(0.0, self._until - self.clock())

    def valid(self, session: int | None = None) -> bool:
        return self.remaining(session) > 0

    def ready_now(self) -> bool:
        """A call of this run may go out this instant, without waiting."""
        fence = run_fence.get()
        return fence is not None and not self._suspended and self.remaining(fence.session) > 0

    @property
    def suspended(self) -> bool:
        return self._suspended

    def current_session(self) -> int | None:
        """The session the client is on now, kept while the connection is suspended
        (kazoo's ``client_id`` says None then); None once it has expired."""
        return self.client._session_id or None

    async def usable(self) -> None:
        """Return when a call of this run may be sent now; raise LeaseExpired when it
        may never be (and mark the run: its outcome cannot be trusted). While the
        connection is suspended the call waits: the session may come back before the
        lease ends. Connected on the run's session with the lease over (a process
        that was stopped and has just resumed), it waits for one fresh probe: an
        answer proves the session afresh, none means it is gone. A call that belongs
        to no run of this worker is refused."""
        fence = run_fence.get()
        session = fence.session if fence is not None else None
        proving_until: float | None = None
        while True:
            left = self.remaining(session) if session is not None else 0.0
            if left > 0:
                if not self._suspended:
                    return
                await asyncio.sleep(min(SUSPENDED_POLL_S, left))
                continue
            if not self._suspended and not self._revoked and session is not None and session == self.current_session():
                now = self.clock()
                if proving_until is None:
                    proving_until = now + max(2 * self.probe_interval, 0.2)
                    self._poke.set()
                if now < proving_until:
                    await asyncio.sleep(SUSPENDED_POLL_S)
                    continue
            if fence is not None:
                fence.refused = True
            raise LeaseExpired(
                "the worker cannot prove its ZooKeeper session holds this run (its lease ran out, or the session ended)"
            )

    # ------------------------------------------------------------------ renewing
    def _on_state(self, state: str) -> None:
        """On kazoo's thread: note the state; never block here."""
        if state == KazooState.SUSPENDED:
            self._suspended = True
        elif state == KazooState.CONNECTED:
            self._suspended = False
            self._poke.set()  # prove the (maybe new) session at once
        elif state == KazooState.LOST:
            self._suspended = True
            with self._lock:
                self._until = 0.0
            self._poke.set()

    def _renewed(self, sent: float, session: int, result) -> None:
        """An answered probe: the lease runs from its send time (kazoo's callback thread)."""
        try:
            result.get()
        except Exception:  # noqa: BLE001 — no answer: the lease is not renewed (NoNode cannot happen on "/")
            return
        if self.current_session() != session:
            return
        end = sent + self.timeout - self.margin
        with self._lock:
            if self._revoked:
                return
            if session != self._session:  # a new session: the old one's lease is no more
                self._session, self._until = session, end
            elif end > self._until:
                self._until = end
            self._ended_reported = False

    def _beat(self) -> None:
        while not self._stop.is_set():
            session = self.current_session()
            if session is not None and self.client.state == KazooState.CONNECTED:
                sent = self.clock()
                try:
                    self.client.exists_async(self.probe_path).rawlink(
                        lambda result, sent=sent, session=session: self._renewed(sent, session, result)
                    )
                except Exception:  # noqa: BLE001 — the connection went between the check and the send
                    pass
            self._report_end()
            left = self.remaining()
            self._poke.wait(min(self.probe_interval, left) if left > 0 else self.probe_interval)
            self._poke.clear()

    def _report_end(self) -> None:
        with self._lock:
            over = self._until <= self.clock()
            report = over and not self._ended_reported
            if report:
                self._ended_reported = True
        if report:
            reason = "the session ended" if self.current_session() != self._session else "its lease ran out"
            for callback in self._on_end:
                try:
                    callback(reason)
                except Exception:
                    log.exception("lease end callback failed")


class FencedGate:
    """What a job run awaits before each upstream call: the call-rate gate (if
    any), then the lease — checked last, right before the call goes out, since
    waiting for a rate token can take a while."""

    def __init__(self, lease: SessionLease, inner: Callable[[str], Awaitable[None]] | None = None):
        self.lease = lease
        self.inner = inner

    async def __call__(self, table: str) -> None:
        await self.lease.usable()
        if self.inner is None:
            return
        while True:
            await self.inner(table)
            if self.lease.ready_now():
                return
            # the lease had to be waited for (suspended, or proved again after a pause): the rate
            # token's time slot may have closed meanwhile, so the call takes a fresh one
            await self.lease.usable()

    def ready_now(self) -> bool:
        """Whether a call may go out at once, with no wait for the lease."""
        return self.lease.ready_now()

    def give_back(self) -> None:
        give_back = getattr(self.inner, "give_back", None)
        if give_back is not None:
            give_back()
