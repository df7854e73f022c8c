"""Where things live in ZooKeeper (under a root, ``/qlgate`` by default)::

jobs/<id>                        job record (JSON), changed by compare-and-set
queue/<pri>-<due>-<id>~<types>   a ready job; text order = run order (data: its types
                                 and record); the queue node's own data is touched by
                                 every change but the master's grants (see enqueue)
workers/<name>                   ephemeral: a live worker and its slots
assign/<worker>/<id>-<run>       a run handed to a worker; the worker node's own data
                                 is the news of the last hand-over (see hand_over)
cancel/<worker>                  its data is the news of the last cancel request for a
                                 run of the worker's (see ask_to_cancel)
limiter/election/n-<seq>         ephemeral sequential: the lowest is the master
limiter/running/<type>/<id>-<run>  a slot in use, recorded in the same transaction
                                 that lets the run through the gate; the type node's
                                 own data is the news of the last release (see free_slots)
limits/<type>                    how many runs of the type may hold a slot at once
ids/<category>                   free id ranges (see ids.py)
finished/<10 s bucket>/<id>      jobs that ended, by when (see mark_finished)
keys/<digest>                    an idempotency key's job (data: its id and when), made
                                 with the job; a retried submission finds it here
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kazoo.exceptions import NoNodeError

from ...limits.stores.zk_nodes import decode, encode, first_failure, limit_path, limits_path
from ..model import queue_key


def queue_entry(record: dict[str, Any], version: int) -> bytes:
    """A queue entry carries the job's types, and its record as of ``version`` — the
    version the same transaction leaves the job znode at — so the limiter can let it
    through without reading the job first."""
    return encode({"types": record["types"], "job": record, "version": version})


def enqueue(tx, layout: Layout, record: dict[str, Any], version: int, due: float) -> None:
    """Queue a job within ``tx``. The queue node's data is touched as well: that,
    not the list of entries, is what the limiter master watches. It lists the
    queue again only when someone else changed it; its own grants it keeps track
    of itself (a thousand-entry listing after every grant was its main cost)."""
    key = queue_key(record["priority"], due, record["id"], record["types"])
    tx.create(f"{layout.queue}/{key}", queue_entry(record, version))
    tx.set_data(layout.queue, b"")


def dequeue(tx, layout: Layout, entry: str) -> None:
    """Take an entry out of the queue within ``tx`` — for anyone but the master (see enqueue)."""
    tx.delete(f"{layout.queue}/{entry}")
    tx.set_data(layout.queue, b"")


def free_slots(tx, layout: Layout, name: str, types: list[str]) -> None:
    """Within ``tx``: free the slots of run ``name``. Each type node's data becomes
    the news of this release: that, not the list of slots, is what the limiter
    master watches, so its own grants do not wake it, and a release it has the
    news of costs it one read, not a listing (see ``news``). The run's
    assignment goes in the same transaction, so the news frees its worker's slot too."""
    message = encode({"freed": [name]})
    for t in types:
        tx.delete(f"{layout.running(t)}/{name}")
        tx.set_data(layout.running(t), message)


def hand_over(tx, layout: Layout, worker: str, runs: dict[str, dict[str, Any]]) -> None:
    """Within ``tx``: hand ``runs`` (name → what the worker needs to run it) to
    ``worker``. An assignment records each (a run taken back is one whose
    assignment is gone); the worker's node's data becomes the news of this
    hand-over, with the runs' records, so a worker that saw the version before
    starts them after one read (see ``news``). One news per worker and transaction:
    two would leave the worker a gap."""
    for name, info in runs.items():
        tx.create(f"{layout.assignments(worker)}/{name}", encode(info))
    tx.set_data(layout.assignments(worker), encode({"runs": runs}))


def ask_to_cancel(tx, layout: Layout, worker: str, name: str) -> None:
    """Within ``tx`` (which sets the job's ``cancel_requested``): the news for the
    worker running ``name``, so that it stops the script without a watch per run."""
    tx.set_data(layout.cancels(worker), encode({"cancel": [name]}))


def news(data: bytes, version: int, seen: int | None) -> dict[str, Any] | None:
    """What last changed a node whose data is the news of its last change, when
    the reader saw the version just before (watches fire once, and a reader
    re-arms its watch with the read that brings the news). After a gap, or when
    the writer wrote no news, None: the reader lists the children instead."""
    if seen is None or version != seen + 1 or not data:
        return None
    return decode(data)


FINISHED_BUCKET_S = 10


def finished_bucket(layout: Layout, ended: float) -> str:
    return f"{layout.finished}/{int(ended // FINISHED_BUCKET_S) * FINISHED_BUCKET_S:012d}"


def bucket_start(name: str) -> int:
    return int(name)


_buckets_made: set[tuple[str, str]] = set()  # (cluster and chroot, bucket) known to exist


def _bucket_key(client, bucket: str) -> tuple[str, str]:
    return (f"{getattr(client, 'hosts', '')}{getattr(client, 'chroot', '')}", bucket)


def mark_finished(client, tx, layout: Layout, job_id: int, ended: float) -> None:
    """Index a job that ends in ``tx`` by when it ended, so that archiving reads
    only jobs old enough to go rather than every job ZooKeeper holds. The
    bucket is made outside the transaction, once per process and bucket (the
    archiver removes a bucket only minutes after it closed; should it be gone
    anyway, the transaction fails with NoNodeError and ``forget_bucket`` lets
    the retry make it again)."""
    bucket = finished_bucket(layout, ended)
    key = _bucket_key(client, bucket)
    if key not in _buckets_made:
        client.ensure_path(bucket)
        if len(_buckets_made) > 10_000:
            _buckets_made.clear()
        _buckets_made.add(key)
    tx.create(f"{bucket}/{job_id}")


def forget_bucket(client, layout: Layout, ended: float) -> bool:
    """After a NoNodeError: was the bucket missing (so a retry is worth it)?"""
    bucket = finished_bucket(layout, ended)
    _buckets_made.discard(_bucket_key(client, bucket))
    return client.exists(bucket) is None


def run_name(job_id: int, run: int) -> str:
    return f"{job_id}-{run}"


def parse_run_name(name: str) -> tuple[int, int]:
    job_id, run = name.rsplit("-", 1)
    return int(job_id), int(run)


@dataclass(frozen=True)
class Layout:
    root: str = "/qlgate"

    @property
    def jobs(self) -> str:
        return f"{self.root}/jobs"

    def job(self, job_id: int) -> str:
        return f"{self.root}/jobs/{job_id}"

    @property
    def queue(self) -> str:
        return f"{self.root}/queue"

    @property
    def workers(self) -> str:
        return f"{self.root}/workers"

    def worker(self, name: str) -> str:
        return f"{self.root}/workers/{name}"

    def assignments(self, worker: str) -> str:
        return f"{self.root}/assign/{worker}"

    @property
    def assign_root(self) -> str:
        return f"{self.root}/assign"

    def cancels(self, worker: str) -> str:
        return f"{self.root}/cancel/{worker}"

    @property
    def cancel_root(self) -> str:
        return f"{self.root}/cancel"

    @property
    def election(self) -> str:
        return f"{self.root}/limiter/election"

    @property
    def running_root(self) -> str:
        return f"{self.root}/limiter/running"

    def running(self, job_type: str) -> str:
        return f"{self.root}/limiter/running/{job_type}"

    @property
    def limits(self) -> str:  # the limits' node (``qlgate/limits/stores/zk_nodes.py``), read by the limiter too
        return limits_path(self.root)

    def limit(self, job_type: str) -> str:
        return limit_path(self.root, job_type)

    @property
    def ids(self) -> str:
        return f"{self.root}/ids"

    @property
    def finished(self) -> str:
        return f"{self.root}/finished"

    @property
    def keys(self) -> str:
        return f"{self.root}/keys"

    def key(self, digest: str) -> str:
        return f"{self.root}/keys/{digest}"

    def ensure(self, client) -> None:
        for path in (
            self.jobs,
            self.queue,
            self.workers,
            self.assign_root,
            self.cancel_root,
            self.election,
            self.running_root,
            self.limits,
            self.ids,
            self.finished,
            self.keys,
        ):
            client.ensure_path(path)


def commit(tx) -> None:
    """Commit a transaction; raise the failure that undid it."""
    failure = first_failure(tx.commit())
    if failure is not None:
        raise failure


def value_or_none(result):
    """The value of an async read, or None when the node has gone meanwhile."""
    try:
        return result.get()
    except NoNodeError:
        return None
