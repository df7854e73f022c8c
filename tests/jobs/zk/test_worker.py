"""A worker starts what the limiter hands it: from the news of a hand-over when
it saw the version before (one read), from a listing of its assignments after a
gap — and every run once, however many times news and listings name it."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from qlgate.jobs.model import RUNNING, Attempt, Job
from qlgate.jobs.zk.layout import Layout, encode, hand_over
from qlgate.jobs.zk.worker import Worker


def run_info(job_id: int) -> dict:
    job = Job(id=job_id, script="return 1", types=["t"], state=RUNNING, run=1,
              attempts=[Attempt(run=1, worker="w", started=time.time())])
    return {"id": job_id, "run": 1, "types": ["t"], "job": job.to_dict(), "version": 1}


class Started:
    """The runner: notes which jobs started, in order."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.changed = threading.Condition()

    async def __call__(self, job: Job) -> None:
        with self.changed:
            self.ids.append(job.id)
            self.changed.notify_all()
        await asyncio.sleep(0.01)

    def wait_for(self, job_id: int) -> list[int]:
        with self.changed:
            assert self.changed.wait_for(lambda: job_id in self.ids, timeout=10), self.ids
            return list(self.ids)


@pytest.fixture
def world(zk):
    layout = Layout("/qlgate")
    layout.ensure(zk)
    zk.ensure_path(layout.assignments("w"))
    started = Started()
    worker = Worker(zk, started, name="w", slots=8)
    yield zk, layout, worker, started
    worker.stop()


def hand(zk, layout: Layout, *job_ids: int, extra_news: bool = False) -> None:
    """The limiter's side: one transaction, one news for the worker (two with ``extra_news``)."""
    tx = zk.transaction()
    hand_over(tx, layout, "w", {f"{i}-1": run_info(i) for i in job_ids})
    if extra_news:
        tx.set_data(layout.assignments("w"), b"")
    assert not any(isinstance(r, Exception) for r in tx.commit())


def test_runs_start_from_the_news_and_after_a_gap_from_a_listing_each_once(world):
    zk, layout, worker, started = world
    hand(zk, layout, 1)
    worker.start()
    assert started.wait_for(1) == [1]                      # the first read is a listing

    zk.create(f"{layout.assignments('w')}/9-1", encode(run_info(9)))   # only a listing shows it
    hand(zk, layout, 2, 3)
    started.wait_for(3)
    hand(zk, layout, 4)
    assert started.wait_for(4) == [1, 2, 3, 4]             # news alone: 9-1 was never listed

    hand(zk, layout, 5, extra_news=True)                   # two versions in one go: a gap
    assert sorted(started.wait_for(9)) == [1, 2, 3, 4, 5, 9]   # listed, in name order: 5-1, then 9-1

    zk.set(layout.assignments("w"), encode({"runs": {"1-1": run_info(1)}}))   # news of a run it has
    hand(zk, layout, 6)
    assert sorted(started.wait_for(6)) == [1, 2, 3, 4, 5, 6, 9]
