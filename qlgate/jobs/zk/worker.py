"""A worker: registers itself (an ephemeral znode with its slot count and its
per-call deadline), runs the runs the limiter hands it, and finishes each with
one transaction that frees its slots and records the outcome. If the run was
taken back meanwhile (the worker's session ended and the limiter re-queued the
job), that transaction fails and the late outcome is dropped, with a WARNING:
a job never ends twice.

A worker fences itself (``lease.py``): its runs call the partner API only
while its lease on the ZooKeeper session holds; when the lease ends, or the
session is lost, the runs in hand are cancelled, calls in flight aborted.

Here is the worker's life (registering, fencing, stopping) and its intake
(reading the news of hand-overs and cancel requests, starting runs); the way
out of a run — recording its outcome, handing back one never started — is in
``outcomes.py``, and the news feeds it reads in ``feed.py``: each reads on its
own, and the way out is where most of ZooKeeper's failures are answered.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import ConnectionLoss, NodeExistsError, NoNodeError, SessionExpiredError

from ...config_keys import declared_default
from ..model import MAX_RUN_SECONDS, MAX_STORED_RESULT_BYTES, Job, JobRunner, attempt_error
from ..runner import run_with_deadline
from .feed import Feed
from .layout import Layout, decode, encode, parse_run_name
from .lease import FencedGate, RunFence, SessionLease, run_fence
from .outcomes import Outcomes

if TYPE_CHECKING:
    from ..archive import Archive

log = logging.getLogger("qlgate.jobs.worker")
CHECK_REGISTRATION_S = 5.0
HANDLED_KEPT = 10_000  # names of runs started lately, to tell news of them from news of new ones
CALL_TIMEOUT_S = float(
    declared_default("jobs.callTimeout")
)  # jobs.callTimeout: the longest one upstream call of a run may take

# runs a job's script: (job) -> awaitable result; raising means the attempt failed


class Worker(Outcomes):
    def __init__(
        self,
        client: KazooClient,
        runner: JobRunner,
        *,
        name: str | None = None,
        slots: int = 4,
        root: str = "/qlgate",
        loop: asyncio.AbstractEventLoop | None = None,
        max_run_seconds: float = MAX_RUN_SECONDS,
        call_timeout: float = CALL_TIMEOUT_S,
        lease: SessionLease | None = None,
        archive: Archive | None = None,
        max_result_bytes: int = MAX_STORED_RESULT_BYTES,
    ):
        self.client = client
        self.runner = runner
        self.max_run_seconds = max_run_seconds  # config jobs.maxRunSeconds: no run takes longer
        # jobs.callTimeout: published with our registration, so that the limiter waits that long
        # past our session's end before it hands our runs to anyone else
        self.call_timeout = call_timeout
        # the cluster's database: results go there straight from here (up to max_result_bytes),
        # not through ZooKeeper; without one a result stays in its record (MAX_RESULT_BYTES)
        self.archive = archive
        self.max_result_bytes = max_result_bytes
        self.layout = Layout(root)
        self.lease = lease or SessionLease(client, probe_path=self.layout.workers)
        self.lease.on_end(self._lease_ended)
        if hasattr(runner, "gate") and not isinstance(runner.gate, FencedGate):
            runner.gate = FencedGate(self.lease, runner.gate)  # every call of a run checks the lease
        if hasattr(runner, "call_deadline"):  # never longer than what we tell the limiter
            runner.call_deadline = min(runner.call_deadline or call_timeout, call_timeout)
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.slots = slots
        self.layout.ensure(client)
        self.loop = loop
        self._own_loop = loop is None
        self._running: dict[str, Future] = {}
        # finishing a run blocks on ZooKeeper: one thread per slot, so finishes never queue
        self._pool = ThreadPoolExecutor(max_workers=slots + 1, thread_name_prefix=f"finish-{self.name}")
        self._wake = threading.Event()
        self._draining = threading.Event()  # stopping: runs handed over now go back unstarted
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._main, name=f"worker-{self.name}", daemon=True)
        self._session_lost = False  # our ephemeral node went with the session: register again
        self._handled: OrderedDict[str, None] = OrderedDict()  # runs started, newest last
        self._hand_overs = Feed(self, self.layout.assignments(self.name), self._take_new_runs, self._list_runs)
        self._cancels = Feed(self, self.layout.cancels(self.name), self._take_cancels, self._check_records)
        self._tasks: dict[str, asyncio.Future] = {}  # run → its script (on the loop's thread)
        self._cancel_early: set[str] = set()  # runs asked to stop before their script began
        self._sessions: dict[str, int | None] = {}  # run → the session it was handed over on
        self._fenced: dict[str, str] = {}  # run → why it was fenced
        self._give_up_at: float | None = None  # stopping: nothing waits past this
        self._last_check = 0.0
        client.add_listener(self._on_state)

    # ------------------------------------------------------------------ life
    def start(self) -> Worker:
        if self.loop is None:
            self.loop = asyncio.new_event_loop()
            threading.Thread(target=self.loop.run_forever, name=f"worker-loop-{self.name}", daemon=True).start()
        self.lease.start()
        self._register()
        self._thread.start()
        return self

    def stop(self, *, drain: bool = True, timeout: float = 30) -> None:
        """Stop taking runs, within ``timeout`` seconds whatever ZooKeeper's state.
        With ``drain`` the runs in hand get half the time to finish; those still
        running then are cancelled as fenced, their outcome recorded if ZooKeeper
        answers in time (the job goes back to its place in the queue), or else
        left for the limiter to take back once our session has ended."""
        started = time.monotonic()
        self._give_up_at = started + timeout
        self._draining.set()
        if drain:
            self._wait_for_runs(started + timeout / 2)
        if self._running:
            self.fence_all("the worker is stopping")
            self._wait_for_runs(started + timeout * 0.8)
        self._stop.set()
        self._wake.set()
        self._thread.join(max(0.0, self._give_up_at - time.monotonic()))
        # no call of ours may pass once the limiter starts counting towards a re-grant
        self.lease.stop()
        try:
            self.client.delete_async(self.layout.worker(self.name)).get(
                timeout=max(0.0, self._give_up_at - time.monotonic())
            )
        except Exception:  # noqa: BLE001 — the session may be gone (the node with it), or ZooKeeper away
            pass
        close = getattr(self.runner, "close", None)
        if close is not None and self.loop is not None and self.loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(close(), self.loop).result(
                    max(0.1, self._give_up_at - time.monotonic())
                )
            except Exception:  # noqa: BLE001 — closing is best effort within the stop bound
                pass
        self._pool.shutdown(wait=False)
        if self._own_loop and self.loop is not None:
            self.loop.call_soon_threadsafe(self.loop.stop)

    def _on_loop(self) -> asyncio.AbstractEventLoop:
        """The loop runs run on (set by start())."""
        if self.loop is None:
            raise RuntimeError("the worker has not started")
        return self.loop

    def _wait_for_runs(self, until: float) -> None:
        for future in list(self._running.values()):
            try:
                future.result(max(0.0, until - time.monotonic()))
            except Exception:  # noqa: BLE001 — a run that failed has its outcome recorded by its own task
                pass

    # ------------------------------------------------------------------ fencing
    def _lease_ended(self, reason: str) -> None:
        """The lease ran out or the session ended: no run in hand may call on."""
        if self._running:
            self.fence_all(f"{reason}: the worker could not prove it still held the run's slots")

    def fence_all(self, reason: str) -> None:
        """Cancel every run in hand; their outcomes are dropped or recorded as fenced."""
        for name in list(self._running):
            if name not in self._fenced:
                self._fenced[name] = reason
                job_id, run = parse_run_name(name)
                log.warning("job %s run %s: fenced (%s); cancelling it", job_id, run, reason)
                self._on_loop().call_soon_threadsafe(self._cancel_run, name)

    def _register(self) -> None:
        """Our ephemeral node; a previous life's node (same name) must expire first."""
        info = encode(
            {
                "slots": self.slots,
                "host": socket.gethostname(),
                "pid": os.getpid(),
                "started": time.time(),
                "callTimeout": self.call_timeout,
            }
        )
        while not self._stop.is_set():
            try:
                self.client.create(self.layout.worker(self.name), info, ephemeral=True)
                break
            except NodeExistsError:
                try:
                    _data, stat = self.client.get(self.layout.worker(self.name))
                except NoNodeError:  # the old one expired between the two calls
                    continue
                if stat.ephemeralOwner == self.client.client_id[0]:
                    break
                time.sleep(0.2)
        self.client.ensure_path(self.layout.assignments(self.name))
        self.client.ensure_path(self.layout.cancels(self.name))

    def _on_state(self, state: str) -> None:
        """On kazoo's thread. A lost session takes our runs with it: they are fenced
        here at once (the lease would say so too, a moment later)."""
        if state == KazooState.LOST:
            self._session_lost = True
            if self._running and self.loop is not None:
                threading.Thread(target=self.fence_all, args=("the ZooKeeper session ended",), daemon=True).start()
        if state != KazooState.CONNECTED and not self._draining.is_set():
            log.warning("worker %s: ZooKeeper connection %s", self.name, state.lower())
        self._wake.set()

    # ------------------------------------------------------------------ loop
    def _main(self) -> None:
        while not self._stop.is_set():
            try:
                if self.client.state == KazooState.CONNECTED:
                    # our node is looked at after a lost session and now and then (someone may have
                    # removed it), not on every wake-up; the assignments are listed then as well
                    now = time.monotonic()
                    if self._session_lost or now - self._last_check > CHECK_REGISTRATION_S:
                        self._session_lost, self._last_check = False, now
                        if self.client.exists(self.layout.worker(self.name)) is None:
                            self._register()
                        self._hand_overs.forget()
                        self._cancels.forget()
                    for feed in (self._hand_overs, self._cancels):
                        if feed.due():
                            feed.read()
            except (ConnectionLoss, SessionExpiredError) as error:  # expected in an outage: one line
                log.warning("worker %s: reading assignments failed (%s); trying again", self.name, type(error).__name__)
                self._hand_overs.forget()
                self._cancels.forget()
                self._stop.wait(0.2)
            except Exception:
                log.exception("worker %s: reading assignments failed", self.name)
                self._hand_overs.forget()
                self._cancels.forget()
                self._stop.wait(0.2)
            self._wake.wait(1.0)
            self._wake.clear()

    def _take_new_runs(self, message: dict[str, Any]) -> None:
        """The news of a hand-over (``layout.hand_over``): the new runs, with their records."""
        for name, info in message["runs"].items():
            self._start(name, info)

    def _list_runs(self) -> None:
        """After a gap, or the first time: the assignments not started yet."""
        path = self.layout.assignments(self.name)
        pending = [
            (n, self.client.get_async(f"{path}/{n}"))
            for n in sorted(self.client.get_children(path))
            if n not in self._handled and n not in self._running
        ]
        for name, result in pending:
            try:
                self._start(name, decode(result.get()[0]))
            except NoNodeError:
                continue

    def _take_cancels(self, message: dict[str, Any]) -> None:
        """The news of a cancel request (``layout.ask_to_cancel``) names the run."""
        self._cancel([n for n in message["cancel"] if n in self._running])

    def _check_records(self) -> None:
        """After a gap, or the first time: the records of the runs in hand tell."""
        runs = [(n, *parse_run_name(n)) for n in list(self._running)]
        reads = [(name, run, self.client.get_async(self.layout.job(job_id))) for name, job_id, run in runs]
        asked = []
        for name, run, result in reads:
            try:
                record = decode(result.get()[0])
            except NoNodeError:
                continue
            if record.get("cancel_requested") and record.get("run") == run:
                asked.append(name)
        self._cancel(asked)

    def _cancel(self, names: list[str]) -> None:
        for name in names:
            self._on_loop().call_soon_threadsafe(self._cancel_run, name)

    def _cancel_run(self, name: str) -> None:
        """On the loop's thread: stop the script, or have it stop as soon as it begins."""
        task = self._tasks.get(name)
        if task is not None:
            task.cancel()
        else:
            self._cancel_early.add(name)

    def _start(self, name: str, info: dict[str, Any]) -> None:
        """A run starts once: news and a listing may both name it. (The names kept
        are those of runs in hand and of the latest ones started: a run ended has
        no assignment left to list, and news only ever names runs just handed over.)"""
        if name in self._handled or name in self._running:
            return
        if self._draining.is_set():
            # handed over while we drain: never started, so it goes back at once and costs no attempt
            self._handled[name] = None
            try:
                self._pool.submit(self._hand_back, name, info)
            except RuntimeError:  # the pool has shut down: the limiter takes it back
                pass
            return
        self._handled[name] = None
        session = self.lease.current_session()
        if info.get("session") not in (None, session):
            # handed to an earlier session of ours: lost with it, the limiter takes it back
            job_id, run = parse_run_name(name)
            log.warning("job %s run %s: not started: it was handed to our previous session", job_id, run)
            return
        self._sessions[name] = session
        while len(self._handled) > HANDLED_KEPT:
            self._handled.popitem(last=False)
        self._running[name] = asyncio.run_coroutine_threadsafe(self._run(name, info), self._on_loop())

    async def _run(self, name: str, info: dict[str, Any]) -> None:
        """The run's record came with it: the script starts at once, bound to the
        session the run was handed over on (its calls check that session's lease)."""
        job = Job.from_dict(info["job"])
        loop = asyncio.get_running_loop()
        script_started = time.time()
        session = self._sessions.get(name)
        fence = RunFence(session)
        run_fence.set(fence)  # the script's tasks inherit it
        task = self._tasks[name] = asyncio.ensure_future(run_with_deadline(self.runner, job, self.max_run_seconds))
        if name in self._cancel_early or name in self._fenced:
            task.cancel()
        result: Any = None
        error: str | None = None
        cancelled = False
        try:
            result = await task
        except asyncio.CancelledError:
            cancelled, error = True, "cancelled while running"
        except Exception as e:  # noqa: BLE001 — the job's failure, recorded on the attempt
            error = attempt_error(e)
        finally:
            self._tasks.pop(name, None)
            self._cancel_early.discard(name)
        if name not in self._fenced and fence.refused:
            # a call of the run was refused for want of a lease: its outcome cannot be trusted
            self._fenced[name] = "a call was refused: its lease had ended"
            log.warning("job %s run %s: fenced (a call was refused: its lease had ended)", job.id, job.run)
        if name in self._fenced:
            cancelled, result = False, None
            error = f"fenced: {self._fenced[name]}"
        timing = (script_started, time.time())
        try:
            await loop.run_in_executor(self._pool, self._finish, name, info, result, error, cancelled, timing)
        except RuntimeError:  # the pool shut down: stopping past our bound
            self._forget(name)
