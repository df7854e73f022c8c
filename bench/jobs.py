"""Job backend benchmarks (issue 5), against a real ZooKeeper from the Debian
package started on a free loopback port:

    python bench/jobs.py [--processes 4] [--batch 10000] [--seconds 3]

ID allocation: N processes draw ids through ``IdAllocator.next_id()`` as fast
as they can for the given time (target: at least 1,000,000 ids/s in total
with batches of 10,000 across 4 processes), and every id handed out is
checked for duplicates.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kazoo.client import KazooClient  # noqa: E402

from qlgate.jobs.ids import IdAllocator  # noqa: E402
from qlgate.jobs.zkserver import LocalZooKeeper  # noqa: E402


def draw_ids(hosts: str, batch: int, seconds: float, start_at: float, queue) -> None:
    """Draw ids until time is up; report them as runs of consecutive ids."""
    client = KazooClient(hosts)
    client.start(10)
    allocator = IdAllocator(client, "bench", batch=batch)
    runs: list[list[int]] = []
    count = 0
    while time.time() < start_at:
        time.sleep(0.001)
    stop_at = start_at + seconds
    next_id = allocator.next_id
    while True:
        for _ in range(1000):
            value = next_id()
            if runs and runs[-1][1] == value:
                runs[-1][1] = value + 1
            else:
                runs.append([value, value + 1])
        count += 1000
        if time.time() >= stop_at:
            break
    elapsed = time.time() - start_at
    allocator.close()
    client.stop()
    queue.put((count, elapsed, runs, allocator.store.conflicts))


def bench_ids(hosts: str, processes: int, batch: int, seconds: float) -> None:
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    start_at = time.time() + 1.0   # every process connected before the clock starts
    procs = [context.Process(target=draw_ids, args=(hosts, batch, seconds, start_at, queue))
             for _ in range(processes)]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=seconds + 60) for _ in procs]
    for proc in procs:
        proc.join(30)
    total = sum(count for count, _, _, _ in results)
    elapsed = max(e for _, e, _, _ in results)
    runs = sorted(tuple(r) for _, _, rs, _ in results for r in rs)
    overlaps = sum(1 for (a, b), (c, d) in zip(runs, runs[1:]) if c < b)
    print(f"ID allocation, {processes} processes, batches of {batch}: {total:,} ids in {elapsed:.2f} s = "
          f"{total / elapsed:,.0f} ids/s (target ≥ 1,000,000); duplicates: {overlaps}; "
          f"lost compare-and-sets: {sum(c for *_, c in results)}")
    if overlaps:
        raise SystemExit("duplicate ids were handed out")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=3)
    args = parser.parse_args()
    logging.getLogger("kazoo").setLevel(logging.ERROR)   # the server stopping at the end is expected
    print(f"command: python bench/jobs.py --processes {args.processes} --batch {args.batch} --seconds {args.seconds}")
    with LocalZooKeeper() as zookeeper:
        bench_ids(zookeeper.hosts, args.processes, args.batch, args.seconds)


if __name__ == "__main__":
    main()
