"""The limiter master lets runs through in batches: one transaction, all of its
runs or none. A batch that fails (a job went from the queue behind the master's
back) grants nothing; the master reads everything again and grants the rest."""

from __future__ import annotations

import time

from qlgate.jobs.model import JobSpec
from qlgate.jobs.zk.client import ZkJobs
from qlgate.jobs.zk.layout import Layout, encode
from qlgate.jobs.zk.limiter import Limiter


def wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_batch_of_grants_is_all_or_nothing_and_the_rest_is_granted_after(zk):
    layout = Layout("/qlgate")
    jobs = ZkJobs(zk)
    limiter = Limiter(zk, name="l")
    zk.create(layout.worker("w"), encode({"slots": 8}), ephemeral=True)
    zk.ensure_path(layout.assignments("w"))
    jobs.set_limit("t", 0)
    ids = [jobs.submit(JobSpec("return 1", types=["t"])) for _ in range(3)]
    assert limiter._elected()
    limiter._cycle()  # the gate is shut: the master learns the queue

    first = sorted(zk.get_children(layout.queue))[0]
    zk.delete(f"{layout.queue}/{first}")  # gone without a word to the master
    limiter._wake.clear()
    jobs.set_limit("t", 10)
    wait_until(limiter._wake.is_set)  # its watch on the limit fired
    limiter._wake.clear()
    limiter._cycle()  # one batch of three: its first entry is gone
    wait_until(limiter._wake.is_set)  # the failure asks for a fresh read
    assert zk.get_children(layout.running("t")) == []
    assert zk.get_children(layout.assignments("w")) == []
    assert [jobs.get(i).state for i in ids] == ["queued"] * 3

    limiter._cycle()
    wait_until(lambda: limiter.grants == 2)
    assert sorted(zk.get_children(layout.assignments("w"))) == [f"{ids[1]}-1", f"{ids[2]}-1"]
    assert [jobs.get(i).state for i in ids] == ["queued", "running", "running"]
    jobs.close()


def test_a_lost_workers_runs_keep_their_slots_for_its_call_deadline_then_their_place_in_the_queue(zk, zk_hosts):
    """The worker's session ends: its runs still hold their slots until its per-call
    deadline (carried by each hand-over) has passed; then they go back to the queue
    where they were, ahead of jobs submitted after them."""
    from qlgate.jobs.model import parse_queue_key
    from qlgate.jobs.zk.session import zk_client

    layout = Layout("/qlgate")
    jobs = ZkJobs(zk)
    limiter = Limiter(zk, name="l", server_lag=0)  # one standalone server: no follower lags
    doomed = zk_client(zk_hosts, timeout=2.0)
    doomed.start(10)
    doomed.create(layout.worker("w"), encode({"slots": 1, "callTimeout": 1.5}), ephemeral=True)
    doomed.ensure_path(layout.assignments("w"))
    jobs.set_limit("t", 1)
    first = jobs.submit(JobSpec("return 1", types=["t"]))
    submitted = jobs.get(first).submitted
    assert limiter._elected()
    limiter._cycle()
    wait_until(lambda: jobs.get(first).state == "running")
    later = [jobs.submit(JobSpec("return 1", types=["t"])) for _ in range(2)]
    doomed.stop()  # closed: the worker's node goes at once
    doomed.close()
    gone = time.monotonic()
    while jobs.get(first).state == "running":
        limiter._cycle()
        time.sleep(0.05)
    assert time.monotonic() - gone >= 1.5  # not before the worker's call deadline
    job = jobs.get(first)
    assert job.state == "queued" and "lost" in job.attempts[0].error
    entries = sorted(zk.get_children(layout.queue))
    assert [parse_queue_key(e)[2] for e in entries] == [first, *later]  # first in line again
    assert parse_queue_key(entries[0])[1] == int(submitted * 1000) / 1000
    jobs.close()
