"""The limiter master's mirror of ZooKeeper: it counts its own grants at once,
sees everyone else's changes through watches, and lists the queue only when
someone other than the master changed it."""

from __future__ import annotations

import threading

import pytest

from qlgate.jobs.zk.layout import Layout, dequeue, encode, enqueue, free_slots
from qlgate.jobs.zk.mirror import Mirror


@pytest.fixture
def world(zk):
    layout = Layout("/qlgate")
    layout.ensure(zk)
    woken = threading.Event()
    mirror = Mirror(zk, layout, woken.set)
    return zk, layout, mirror, woken


def record(job_id: int) -> dict:
    return {"id": job_id, "priority": 0, "types": ["t"], "script": "return 1"}


def test_a_grant_counts_at_once_and_a_freed_slot_shows_after_its_watch(world):
    zk, layout, mirror, woken = world
    zk.create(layout.limit("t"), encode(2))
    for name in ("1-1", "2-1"):
        zk.create(f"{layout.running('t')}/{name}", b"{}", makepath=True)
    mirror.refresh()
    assert mirror.limits == {"t": 2} and mirror.slots_used() == {"t": 2}

    mirror.granted("entry", "3-1", ["t"], "w")
    assert mirror.slots_used() == {"t": 3}  # no read needed: an over-count is safe

    woken.clear()
    release(zk, layout, "1-1")  # a worker finished
    assert woken.wait(5)
    mirror.refresh()
    assert mirror.slots_used() == {"t": 2}  # 1-1 went; 3-1 counts until a re-read
    mirror.invalidate()  # (as a failed grant asks for)
    mirror.refresh()
    assert mirror.slots_used() == {"t": 1}  # the grant above was never written


def test_a_release_read_in_turn_is_taken_from_its_news_and_after_a_gap_the_slots_are_listed(world):
    zk, layout, mirror, woken = world
    for name in ("1-1", "2-1", "3-1"):
        zk.create(f"{layout.running('t')}/{name}", b"{}", makepath=True)
    mirror.refresh()
    zk.create(f"{layout.running('t')}/9-1", b"{}")  # a slot only a listing would show

    woken.clear()
    release(zk, layout, "1-1")
    assert woken.wait(5)
    mirror.refresh()
    assert mirror.running["t"] == {"2-1", "3-1"}  # one read: the news named 1-1

    woken.clear()
    release(zk, layout, "2-1")
    release(zk, layout, "3-1")  # two releases, one read: a gap
    assert woken.wait(5)
    mirror.refresh()
    assert mirror.running["t"] == {"9-1"}


def release(zk, layout: Layout, name: str, worker: str | None = None) -> None:
    """What a finishing worker's transaction does to the gate."""
    tx = zk.transaction()
    if worker is not None:
        tx.delete(f"{layout.assignments(worker)}/{name}")
    free_slots(tx, layout, name, ["t"])
    assert all(not isinstance(r, Exception) for r in tx.commit())


def grant(zk, layout: Layout, mirror: Mirror, name: str, worker: str) -> None:
    """What the master's grant does, as far as the mirror is concerned."""
    tx = zk.transaction()
    tx.create(f"{layout.running('t')}/{name}", encode({"worker": worker}))
    tx.create(f"{layout.assignments(worker)}/{name}", b"{}")
    assert all(not isinstance(r, Exception) for r in tx.commit())
    mirror.granted(f"entry-{name}", name, ["t"], worker)


def test_a_grant_wakes_nobody_and_a_release_frees_the_type_and_the_worker(world):
    zk, layout, mirror, woken = world
    zk.create(layout.limit("t"), encode(2))
    zk.create(layout.worker("w"), encode({"slots": 2}), ephemeral=True)
    zk.ensure_path(layout.assignments("w"))
    zk.ensure_path(layout.running("t"))
    mirror.refresh()

    woken.clear()
    grant(zk, layout, mirror, "1-1", "w")
    grant(zk, layout, mirror, "2-1", "w")
    assert not woken.wait(0.5)  # its own grants: nothing to list again
    assert mirror.slots_used() == {"t": 2} and mirror.free_slots() == {"w": 0}

    release(zk, layout, "1-1", worker="w")
    assert woken.wait(5)
    mirror.refresh()  # one listing of the type's slots tells both
    assert mirror.slots_used() == {"t": 1} and mirror.free_slots() == {"w": 1}


def test_a_limit_change_and_a_new_worker_are_seen(world):
    zk, layout, mirror, woken = world
    zk.create(layout.limit("t"), encode(1))
    mirror.refresh()
    woken.clear()
    zk.set(layout.limit("t"), encode(5))
    zk.create(layout.worker("w"), encode({"slots": 3}), ephemeral=True)
    zk.create(f"{layout.assignments('w')}/9-1", b"{}", makepath=True)
    assert woken.wait(5)
    mirror.refresh()
    assert mirror.limits == {"t": 5}
    assert mirror.free_slots() == {"w": 2}


def test_the_queue_is_listed_again_only_when_someone_else_changed_it(world):
    zk, layout, mirror, woken = world
    tx = zk.transaction()
    enqueue(tx, layout, record(1), 0, due=1.0)
    enqueue(tx, layout, record(2), 0, due=2.0)
    tx.commit()
    mirror.refresh()
    listings, (first, second) = mirror.queue_listings, mirror.queue

    zk.delete(f"{layout.queue}/{first}")  # the master's grant: no touch of the queue node
    mirror.granted(first, "1-1", ["t"], "w")
    mirror.refresh()
    assert mirror.queue == [second] and mirror.queue_listings == listings

    woken.clear()
    tx = zk.transaction()
    dequeue(tx, layout, second)  # a cancel: touches it
    tx.commit()
    assert woken.wait(5)
    mirror.refresh()
    assert mirror.queue == [] and mirror.queue_listings == listings + 1


def test_after_invalidate_everything_is_read_again(world):
    zk, layout, mirror, _ = world
    zk.create(f"{layout.running('t')}/1-1", b"{}", makepath=True)
    mirror.refresh()
    mirror.granted("entry", "2-1", ["t"], "w")
    assert mirror.slots_used() == {"t": 2}
    mirror.invalidate()
    mirror.refresh()
    assert mirror.slots_used() == {"t": 1}
