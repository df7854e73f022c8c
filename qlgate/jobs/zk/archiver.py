"""Archiving, on a thread of its own: jobs that ended over ``keep_finished`` ago
go into the archive (the cluster's database) and out of ZooKeeper, and
idempotency keys older than ``KEY_KEEP_S`` are pruned. Its own class and
thread, not a part of the limiter's cycle, because a pass reads job records
by the hundred: decisions must never wait behind it. The limiter starts and
stops it; only the master archives (``is_master``, the limiter's).
"""

from __future__ import annotations

import logging
import threading
import time

from kazoo.client import KazooClient
from kazoo.exceptions import ConnectionClosedError, ConnectionLoss, NoNodeError, NotEmptyError, SessionExpiredError

from ..archive import Archive
from ..model import KEY_KEEP_S, Job
from .layout import FINISHED_BUCKET_S, Layout, bucket_start, decode, value_or_none

log = logging.getLogger("qlgate.jobs.limiter")
ARCHIVE_EVERY_S = 10.0  # how often finished jobs are looked at for archiving
ARCHIVE_BATCH = 100  # job records read at a time: grants queue behind them on the connection
BUCKET_GRACE_S = 300.0  # how long after it closed a bucket of the finished index may be removed
PRUNE_KEYS_EVERY_S = 600.0


class Archiver:
    def __init__(
        self,
        client: KazooClient,
        layout: Layout,
        archive: Archive | None,
        *,
        keep_finished: float,
        is_master: threading.Event,
        name: str,
    ):
        self.client = client
        self.layout = layout
        self.archive = archive  # where finished jobs go once ``keep_finished`` has passed
        self.keep_finished = keep_finished
        self.is_master = is_master  # the limiter's: set while it is the master
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._archive_loop, name=f"archiver-{name}", daemon=True)

    def start(self) -> Archiver:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Ask the thread to stop (at once between passes, else after the batch in hand)."""
        self._stop.set()

    def join(self, timeout: float) -> None:
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _archive_loop(self) -> None:
        pruned_at = 0.0
        while not self._stop.wait(min(ARCHIVE_EVERY_S, self.keep_finished)):
            if not self.is_master.is_set():
                continue
            try:
                if time.monotonic() - pruned_at > PRUNE_KEYS_EVERY_S:
                    self._prune_keys(time.time())
                    pruned_at = time.monotonic()
                self.archive_finished(time.time())
            except (ConnectionLoss, SessionExpiredError, ConnectionClosedError):
                continue  # the next pass reads afresh
            except Exception:
                log.exception("archiving failed")

    def _prune_keys(self, now: float) -> None:
        """Idempotency keys older than ``KEY_KEEP_S`` name their job no more."""
        c, lay = self.client, self.layout
        names = c.get_children(lay.keys)
        for start in range(0, len(names), ARCHIVE_BATCH):
            batch = [(n, c.get_async(lay.key(n))) for n in names[start : start + ARCHIVE_BATCH]]
            old = [
                n
                for n, result in batch
                if (value := value_or_none(result)) is not None and decode(value[0])["at"] < now - KEY_KEEP_S
            ]
            for result in [c.delete_async(lay.key(n)) for n in old]:
                try:
                    result.get()
                except NoNodeError:
                    pass

    def archive_finished(self, now: float) -> None:
        """Jobs that ended over ``keep_finished`` ago: into the archive, then out of ZooKeeper.
        Only the buckets of the finished index (``layout.mark_finished``) old enough to hold
        such jobs are read, so a pass costs what it archives, not what ZooKeeper holds.
        Archived before deleted, so a master dying in between only archives one twice."""
        lay, c = self.layout, self.client
        cutoff = now - self.keep_finished
        for bucket in sorted(c.get_children(lay.finished)):
            if bucket_start(bucket) > cutoff:
                break
            path = f"{lay.finished}/{bucket}"
            names = c.get_children(path)
            for start in range(0, len(names), ARCHIVE_BATCH):
                if self._stop.is_set() or not self.is_master.is_set():
                    return
                self._archive_batch(path, names[start : start + ARCHIVE_BATCH], cutoff)
            if bucket_start(bucket) + FINISHED_BUCKET_S < now - BUCKET_GRACE_S:
                try:
                    c.delete(path)  # closed long ago: no finisher still writes to it
                except (NoNodeError, NotEmptyError):
                    pass

    def _archive_batch(self, bucket: str, names: list[str], cutoff: float) -> None:
        lay, c = self.layout, self.client
        pending = [(int(n), c.get_async(lay.job(int(n)))) for n in names]
        old: list[tuple[Job, int]] = []
        gone: list[int] = []
        for job_id, result in pending:
            value = value_or_none(result)
            if value is None:
                gone.append(job_id)  # archived by an earlier master: drop its index entry
                continue
            job = Job.from_dict(decode(value[0]))
            if job.final and job.ended is not None and job.ended <= cutoff:
                old.append((job, value[1].version))
        archive = self.archive
        if old and archive is not None:
            archive.add(job for job, _ in old)
            for job, _ in old:  # results of runs that were taken back or fenced: nobody reads them
                archive.drop_results(job.id, except_run=job.run if job.result_bytes is not None else None)
        commits = []
        for job, version in old:
            tx = c.transaction()
            tx.delete(lay.job(job.id), version=version)
            tx.delete(f"{bucket}/{job.id}")
            commits.append(tx.commit_async())
        commits += [c.delete_async(f"{bucket}/{job_id}") for job_id in gone]
        for result in commits:
            try:
                result.get()
            except NoNodeError:
                pass
        if old:
            log.info("archived %d finished job(s)", len(old))
