"""Job and run ids: batches taken by compare-and-set, unused ranges given back
and handed out again lowest first, never one id twice, a clear error at the end."""

from __future__ import annotations

import multiprocessing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qlgate.jobs.ids import (
    IdAllocator,
    IdRangeConflict,
    IdSpaceExhausted,
    RangeStore,
    format_ranges,
    give_back,
    parse_ranges,
    take,
)
from qlgate.jobs.zk.session import zk_client


def test_ranges_round_trip_as_text():
    assert parse_ranges("1:5,9:12") == [(1, 5), (9, 12)]
    assert format_ranges([(1, 5), (9, 12)]) == "1:5,9:12"
    assert parse_ranges("") == []


def test_take_comes_from_the_lowest_range():
    assert take([(1, 5), (9, 12)], 3) == ((1, 4), [(4, 5), (9, 12)])
    assert take([(1, 5), (9, 12)], 10) == ((1, 5), [(9, 12)])  # a short batch, never two pieces
    assert take([], 3) == (None, [])


def test_give_back_merges_in_order_and_refuses_overlaps():
    assert give_back([(9, 12)], (1, 5)) == [(1, 5), (9, 12)]
    assert give_back([(1, 5), (9, 12)], (5, 9)) == [(1, 12)]
    assert give_back([(1, 5)], (7, 7)) == [(1, 5)]
    with pytest.raises(IdRangeConflict):
        give_back([(1, 5)], (4, 6))


@given(st.lists(st.tuples(st.booleans(), st.integers(1, 40)), max_size=40))
def test_any_sequence_of_takes_and_returns_keeps_every_id_exactly_once(steps):
    space = list(range(1, 201))
    free = [(1, 201)]
    held: list[tuple[int, int]] = []
    for is_take, n in steps:
        if is_take or not held:
            got, free = take(free, n)
            if got:
                held.append(got)
        else:
            free = give_back(free, held.pop(n % len(held)))
        ids = [i for a, b in free for i in range(a, b)] + [i for a, b in held for i in range(a, b)]
        assert sorted(ids) == space
        assert free == sorted(free) and all(a < b for a, b in free)


def test_batches_are_taken_once_and_ids_counted_up(zk):
    with IdAllocator(zk, "jobs", batch=10) as first, IdAllocator(zk, "jobs", batch=10) as second:
        a = [first.next_id() for _ in range(3)]
        b = [second.next_id() for _ in range(3)]
        assert a == [1, 2, 3] and b == [11, 12, 13]
        assert first.take(12) == list(range(4, 11)) + list(range(21, 26))
    # both gave back what they did not use; it goes out again, lowest first
    data, _ = zk.get("/qlgate/ids/jobs")
    assert data.decode() == f"14:21,26:{2**53}"
    with IdAllocator(zk, "jobs", batch=5) as third:
        assert [third.next_id() for _ in range(8)] == [14, 15, 16, 17, 18, 19, 20, 26]


def test_an_exhausted_space_is_an_error_not_a_repeat(zk):
    allocator = IdAllocator(zk, "tiny", batch=10, space=25)
    assert allocator.take(25) == list(range(1, 26))
    with pytest.raises(IdSpaceExhausted, match="'tiny' is exhausted"):
        allocator.next_id()
    allocator.close()


def test_a_stale_writer_loses_the_compare_and_set_and_retries(zk):
    store = RangeStore(zk, "race")
    store.take(1)
    ranges, version = store._read()
    zk.set(store.path, b"100:200", version=version)  # another process got there first
    original_read = store._read
    reads = []

    def stale_then_fresh():
        reads.append(1)
        return (ranges, version) if len(reads) == 1 else original_read()

    store._read = stale_then_fresh
    assert store.take(5) == (100, 105)
    assert store.conflicts == 1


def _allocate(hosts: str, count: int, batch: int, queue) -> None:
    client = zk_client(hosts)
    client.start(10)
    with IdAllocator(client, "shared", batch=batch) as allocator:
        ids = [allocator.next_id() for _ in range(count)]
    client.stop()
    queue.put(ids)


def test_concurrent_processes_never_share_an_id(zk_hosts, zk):
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    procs = [context.Process(target=_allocate, args=(zk_hosts, 3000, batch, queue)) for batch in (7, 50, 100, 333)]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=60) for _ in procs]
    for proc in procs:
        proc.join(30)
    every = [i for ids in results for i in ids]
    assert len(every) == len(set(every)) == 12_000
    # everything unused came back: the free list is one unbroken run above the highest id handed out
    free = parse_ranges(zk.get("/qlgate/ids/shared")[0].decode())
    handed = set(every)
    assert all(i not in handed for a, b in free[:-1] for i in range(a, b))
    assert sum(b - a for a, b in free[:-1]) + len(handed) == free[-1][0] - 1
