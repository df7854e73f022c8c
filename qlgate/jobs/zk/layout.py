"""Where things live in ZooKeeper (under a root, ``/qlgate`` by default)::

    jobs/<id>                        job record (JSON), changed by compare-and-set
    queue/<pri>-<due>-<id>           a ready job; text order = run order (data: its types
                                     and record); the queue node's own data is touched by
                                     every change but the master's grants (see enqueue)
    workers/<name>                   ephemeral: a live worker and its slots
    assign/<worker>/<id>-<run>       a run handed to a worker
    limiter/election/n-<seq>         ephemeral sequential: the lowest is the master
    limiter/running/<type>/<id>-<run>  a slot in use, recorded in the same transaction
                                     that lets the run through the gate
    limits/<type>                    how many runs of the type may hold a slot at once
    ids/<category>                   free id ranges (see ids.py)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..model import queue_key


def encode(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def decode(data: bytes) -> Any:
    return json.loads(data.decode()) if data else None


def queue_entry(record: dict[str, Any], version: int) -> bytes:
    """A queue entry carries the job's types, and its record as of ``version`` — the
    version the same transaction leaves the job znode at — so the limiter can let it
    through without reading the job first."""
    return encode({"types": record["types"], "job": record, "version": version})


def enqueue(tx, layout: "Layout", record: dict[str, Any], version: int, due: float) -> None:
    """Queue a job within ``tx``. The queue node's data is touched as well: that,
    not the list of entries, is what the limiter master watches. It lists the
    queue again only when someone else changed it; its own grants it keeps track
    of itself (a thousand-entry listing after every grant was its main cost)."""
    tx.create(f"{layout.queue}/{queue_key(record['priority'], due, record['id'])}", queue_entry(record, version))
    tx.set_data(layout.queue, b"")


def dequeue(tx, layout: "Layout", entry: str) -> None:
    """Take an entry out of the queue within ``tx`` — for anyone but the master (see enqueue)."""
    tx.delete(f"{layout.queue}/{entry}")
    tx.set_data(layout.queue, b"")


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

    @property
    def election(self) -> str:
        return f"{self.root}/limiter/election"

    @property
    def running_root(self) -> str:
        return f"{self.root}/limiter/running"

    def running(self, job_type: str) -> str:
        return f"{self.root}/limiter/running/{job_type}"

    @property
    def limits(self) -> str:
        return f"{self.root}/limits"

    def limit(self, job_type: str) -> str:
        return f"{self.root}/limits/{job_type}"

    @property
    def ids(self) -> str:
        return f"{self.root}/ids"

    def ensure(self, client) -> None:
        for path in (self.jobs, self.queue, self.workers, self.assign_root, self.election, self.running_root,
                     self.limits, self.ids):
            client.ensure_path(path)


def first_failure(results: list) -> Exception | None:
    """The operation that failed a transaction (kazoo reports one result per operation;
    the others only say they were rolled back)."""
    return next((r for r in results if isinstance(r, Exception) and type(r).__name__ != "RolledBackError"), None)


def commit(tx) -> None:
    """Commit a transaction; raise the failure that undid it."""
    failure = first_failure(tx.commit())
    if failure is not None:
        raise failure
