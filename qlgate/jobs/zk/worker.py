"""A worker: registers itself (an ephemeral znode with its slot count), runs
the runs the limiter hands it, and finishes each with one transaction that
frees its slots and records the outcome. If the run was taken back meanwhile
(the worker's session ended and the limiter re-queued the job), that
transaction fails and the late outcome is dropped: a job never ends twice.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Coroutine

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import BadVersionError, NoNodeError, NodeExistsError

from ..model import DONE, QUEUED, RUNNING, Job, finish_attempt
from .layout import (Layout, commit, decode, encode, enqueue, forget_bucket, free_slots, mark_finished,
                     parse_run_name)

log = logging.getLogger("qlgate.jobs.worker")
CHECK_REGISTRATION_S = 5.0

# runs a job's script: (job) -> awaitable result; raising means the attempt failed
JobRunner = Callable[[Job], Coroutine[Any, Any, Any]]


class Worker:
    def __init__(self, client: KazooClient, runner: JobRunner, *, name: str | None = None, slots: int = 4,
                 root: str = "/qlgate", loop: asyncio.AbstractEventLoop | None = None):
        self.client = client
        self.runner = runner
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.slots = slots
        self.layout = Layout(root)
        self.layout.ensure(client)
        self.loop = loop
        self._own_loop = loop is None
        self._running: dict[str, Future] = {}
        # finishing a run blocks on ZooKeeper: one thread per slot, so finishes never queue
        self._pool = ThreadPoolExecutor(max_workers=slots + 1, thread_name_prefix=f"finish-{self.name}")
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._main, name=f"worker-{self.name}", daemon=True)
        self._session_lost = False          # our ephemeral node went with the session: register again
        self._last_check = 0.0
        client.add_listener(self._on_state)

    # ------------------------------------------------------------------ life
    def start(self) -> "Worker":
        if self.loop is None:
            self.loop = asyncio.new_event_loop()
            threading.Thread(target=self.loop.run_forever, name=f"worker-loop-{self.name}", daemon=True).start()
        self._register()
        self._thread.start()
        return self

    def stop(self, *, drain: bool = True, timeout: float = 30) -> None:
        """Stop taking runs; with ``drain`` finish the ones in hand first."""
        self._stop.set()
        self._wake.set()
        if drain:
            deadline = time.monotonic() + timeout
            for future in list(self._running.values()):
                try:
                    future.result(max(0.0, deadline - time.monotonic()))
                except Exception:
                    pass
        self._thread.join(10)
        try:
            self.client.delete(self.layout.worker(self.name))
        except Exception:
            pass
        close = getattr(self.runner, "close", None)
        if close is not None and self.loop is not None and self.loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(close(), self.loop).result(5)
            except Exception:
                pass
        self._pool.shutdown(wait=False)
        if self._own_loop and self.loop is not None:
            self.loop.call_soon_threadsafe(self.loop.stop)

    def _register(self) -> None:
        """Our ephemeral node; a previous life's node (same name) must expire first."""
        info = encode({"slots": self.slots, "host": socket.gethostname(), "pid": os.getpid(),
                       "started": time.time()})
        while not self._stop.is_set():
            try:
                self.client.create(self.layout.worker(self.name), info, ephemeral=True)
                break
            except NodeExistsError:
                data, stat = self.client.get(self.layout.worker(self.name))
                if stat.ephemeralOwner == self.client.client_id[0]:
                    break
                time.sleep(0.2)
        self.client.ensure_path(self.layout.assignments(self.name))

    def _on_state(self, state: str) -> None:
        if state == KazooState.LOST:
            self._session_lost = True
        self._wake.set()

    def _wake_up(self, _event: object = None) -> None:
        self._wake.set()

    # ------------------------------------------------------------------ loop
    def _main(self) -> None:
        while not self._stop.is_set():
            try:
                if self.client.state == KazooState.CONNECTED:
                    # our node is looked at after a lost session and now and then (someone may
                    # have removed it), not on every wake-up: a new run costs two reads, not three
                    now = time.monotonic()
                    if self._session_lost or now - self._last_check > CHECK_REGISTRATION_S:
                        self._session_lost, self._last_check = False, now
                        if self.client.exists(self.layout.worker(self.name)) is None:
                            self._register()
                    self._take_new_runs()
            except Exception:
                log.exception("worker %s: reading assignments failed", self.name)
                time.sleep(0.2)
            self._wake.wait(1.0)
            self._wake.clear()

    def _take_new_runs(self) -> None:
        path = self.layout.assignments(self.name)
        try:
            names = self.client.get_children(path, watch=self._wake_up)
        except NoNodeError:
            self.client.ensure_path(path)
            return self._wake.set()
        new = [(n, self.client.get_async(f"{path}/{n}")) for n in sorted(names) if n not in self._running]
        for name, pending in new:
            try:
                info = decode(pending.get()[0])
            except NoNodeError:
                continue
            self._running[name] = asyncio.run_coroutine_threadsafe(self._run(name, info), self.loop)

    async def _run(self, name: str, info: dict[str, Any]) -> None:
        """The run's record came with it: the script starts at once; the cancel
        watch is set up beside it."""
        job = Job.from_dict(info["job"])
        loop = asyncio.get_running_loop()
        watcher = _CancelWatch(self, job.id, None)
        script_started = time.time()
        task = watcher.task = asyncio.ensure_future(self.runner(job))
        watcher.arm()
        result: Any = None
        error: str | None = None
        cancelled = False
        try:
            result = await task
        except asyncio.CancelledError:
            cancelled, error = True, "cancelled while running"
        except Exception as e:  # the job's failure, recorded on the attempt
            error = f"{type(e).__name__}: {e}"
        finally:
            watcher.disarm()
        timing = (script_started, time.time())
        await loop.run_in_executor(self._pool, self._finish, name, info, result, error, cancelled, timing)

    def _finish(self, name: str, info: dict[str, Any], result: Any, error: str | None, cancelled: bool,
                timing: tuple[float, float]) -> None:
        job_id, run = parse_run_name(name)
        lay = self.layout
        # first try with the record and version the grant gave us: no read on the way out
        job, version = Job.from_dict(info["job"]), info.get("version")
        try:
            while True:
                if version is None:
                    try:
                        data, stat = self.client.get(lay.job(job_id))
                    except NoNodeError:
                        return
                    job, version = Job.from_dict(decode(data)), stat.version
                if job.state != RUNNING or job.run != run:
                    return                      # taken back from us: the outcome no longer counts
                outcome_error, outcome_cancelled = error, cancelled
                if job.cancel_requested and outcome_error is None:
                    outcome_cancelled, outcome_error = True, "cancelled while running"
                job.attempts[-1].script_started, job.attempts[-1].script_ended = timing
                finish_attempt(job, outcome_error, cancelled=outcome_cancelled)
                if outcome_error is None:
                    job.state, job.result, job.ended = DONE, result, time.time()
                tx = self.client.transaction()
                tx.delete(f"{lay.assignments(self.name)}/{name}")     # fails if the run was taken back
                free_slots(tx, lay, name, info["types"])
                record = job.to_dict()
                tx.set_data(lay.job(job_id), encode(record), version=version)
                if job.state == QUEUED:
                    enqueue(tx, lay, record, version + 1, time.time())
                else:
                    mark_finished(self.client, tx, lay, job_id, job.ended)
                try:
                    commit(tx)
                    log.info("job %s run %s: %s", job_id, run, job.state)
                    return
                except BadVersionError:
                    version = None              # a cancel request landed meanwhile: read again
                except NoNodeError:
                    if job.state == QUEUED or not forget_bucket(self.client, lay, job.ended):
                        return                  # the run was taken back
                    version = None
        finally:
            self._running.pop(name, None)
            self._wake.set()


class _CancelWatch:
    """Cancels the running task when the job's record asks for it."""

    def __init__(self, worker: Worker, job_id: int, task: asyncio.Future | None):
        self.worker, self.job_id, self.task = worker, job_id, task
        self.loop = asyncio.get_running_loop()     # made on the loop, armed from a thread
        self.armed = True

    def arm(self) -> None:
        """Read the record with a watch, without blocking: the answer arrives on kazoo's thread."""
        if self.armed:
            self.worker.client.get_async(self.worker.layout.job(self.job_id), watch=self._changed).rawlink(self._read)

    def _read(self, result) -> None:
        try:
            data, _ = result.get()
        except Exception:   # the record is gone, or the session is: nothing to cancel here
            return
        if self.armed and decode(data).get("cancel_requested"):
            self.loop.call_soon_threadsafe(self.task.cancel)

    def _changed(self, _event: object) -> None:
        self.arm()

    def disarm(self) -> None:
        self.armed = False
