"""The limiter master lets runs through in batches: one transaction, all of its
runs or none. A batch that fails (a job went from the queue behind the master's
back) grants nothing; the master reads everything again and grants the rest."""

from __future__ import annotations

import time

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
    ids = [jobs.submit("return 1", types=["t"]) for _ in range(3)]
    assert limiter._elected()
    limiter._cycle()                                       # the gate is shut: the master learns the queue

    first = sorted(zk.get_children(layout.queue))[0]
    zk.delete(f"{layout.queue}/{first}")                   # gone without a word to the master
    limiter._wake.clear()
    jobs.set_limit("t", 10)
    wait_until(limiter._wake.is_set)                       # its watch on the limit fired
    limiter._wake.clear()
    limiter._cycle()                                       # one batch of three: its first entry is gone
    wait_until(limiter._wake.is_set)                       # the failure asks for a fresh read
    assert zk.get_children(layout.running("t")) == []
    assert zk.get_children(layout.assignments("w")) == []
    assert [jobs.get(i).state for i in ids] == ["queued"] * 3

    limiter._cycle()
    wait_until(lambda: limiter.grants == 2)
    assert sorted(zk.get_children(layout.assignments("w"))) == [f"{ids[1]}-1", f"{ids[2]}-1"]
    assert [jobs.get(i).state for i in ids] == ["queued", "running", "running"]
    jobs.close()
