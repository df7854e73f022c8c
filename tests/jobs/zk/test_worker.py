"""A worker starts what the limiter hands it: from the news of a hand-over when
it saw the version before (one read), from a listing of its assignments after a
gap — and every run once, however many times news and listings name it. Cancel
requests reach it the same way, with the job records to fall back on."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from qlgate.jobs.model import RUNNING, Attempt, Job
from qlgate.jobs.zk.layout import Layout, ask_to_cancel, encode, hand_over
from qlgate.jobs.zk.worker import Worker


def running_job(job_id: int, seconds: float = 0.01, **fields) -> Job:
    return Job(
        id=job_id,
        script="return 1",
        types=["t"],
        vars={"seconds": seconds},
        state=RUNNING,
        run=1,
        attempts=[Attempt(run=1, worker="w", started=time.time())],
        **fields,
    )


def run_info(job_id: int, seconds: float = 0.01) -> dict:
    return {"id": job_id, "run": 1, "types": ["t"], "job": running_job(job_id, seconds).to_dict(), "version": 1}


class Started:
    """The runner: notes which jobs started, in order."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.cancelled: list[int] = []
        self.changed = threading.Condition()

    async def __call__(self, job: Job) -> None:
        self._note(self.ids, job.id)
        try:
            await asyncio.sleep(job.vars["seconds"])
        except asyncio.CancelledError:
            self._note(self.cancelled, job.id)
            raise

    def _note(self, where: list[int], job_id: int) -> None:
        with self.changed:
            where.append(job_id)
            self.changed.notify_all()

    def wait_for(self, job_id: int, where: list[int] | None = None) -> list[int]:
        where = self.ids if where is None else where
        with self.changed:
            assert self.changed.wait_for(lambda: job_id in where, timeout=10), where
            return list(where)


@pytest.fixture
def world(zk):
    layout = Layout("/qlgate")
    layout.ensure(zk)
    zk.ensure_path(layout.assignments("w"))
    started = Started()
    worker = Worker(zk, started, name="w", slots=8)
    yield zk, layout, worker, started
    worker.stop()


def hand(zk, layout: Layout, *job_ids: int, extra_news: bool = False, seconds: float = 0.01) -> None:
    """The limiter's side: one transaction, one news for the worker (two with ``extra_news``)."""
    tx = zk.transaction()
    hand_over(tx, layout, "w", {f"{i}-1": run_info(i, seconds) for i in job_ids})
    if extra_news:
        tx.set_data(layout.assignments("w"), b"")
    assert not any(isinstance(r, Exception) for r in tx.commit())


def test_runs_start_from_the_news_and_after_a_gap_from_a_listing_each_once(world):
    zk, layout, worker, started = world
    hand(zk, layout, 1)
    worker.start()
    assert started.wait_for(1) == [1]  # the first read is a listing

    zk.create(f"{layout.assignments('w')}/9-1", encode(run_info(9)))  # only a listing shows it
    hand(zk, layout, 2, 3)
    started.wait_for(3)
    hand(zk, layout, 4)
    assert started.wait_for(4) == [1, 2, 3, 4]  # news alone: 9-1 was never listed

    hand(zk, layout, 5, extra_news=True)  # two versions in one go: a gap
    assert sorted(started.wait_for(9)) == [1, 2, 3, 4, 5, 9]  # listed, in name order: 5-1, then 9-1

    zk.set(layout.assignments("w"), encode({"runs": {"1-1": run_info(1)}}))  # news of a run it has
    hand(zk, layout, 6)
    assert sorted(started.wait_for(6)) == [1, 2, 3, 4, 5, 6, 9]


def test_a_cancel_request_stops_the_script_from_its_news_or_after_a_gap_from_the_record(world):
    zk, layout, worker, started = world
    worker.start()
    hand(zk, layout, 1, 2, seconds=30)
    started.wait_for(2)
    deadline = time.monotonic() + 10
    while worker._cancels.seen is None:  # its first read of the cancel news has happened
        assert time.monotonic() < deadline
        time.sleep(0.01)

    tx = zk.transaction()
    ask_to_cancel(tx, layout, "w", "1-1")  # beside the record, as ZkJobs.cancel does
    tx.commit()
    assert started.wait_for(1, started.cancelled) == [1]

    zk.create(layout.job(2), encode(running_job(2, cancel_requested=True).to_dict()))
    tx = zk.transaction()
    tx.set_data(layout.cancels("w"), b"")
    tx.set_data(layout.cancels("w"), b"")  # two versions, no news: a gap
    tx.commit()
    assert started.wait_for(2, started.cancelled) == [1, 2]  # the records of the runs in hand told
