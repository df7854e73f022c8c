"""kazoo's own threading handler against qlgate's polling handler
(``qlgate/jobs/zk/session.py``), one client against a real ZooKeeper from the
Debian package on a free loopback port: sequential reads, pipelined reads, and
the client's CPU per read.

    python bench/zk_client.py [--reads 3000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kazoo.client import KazooClient

from qlgate.jobs.zk.session import PollingHandler
from tests.servers.zookeeper import LocalZooKeeper

NODES = 50


def measure(hosts: str, handler, reads: int) -> tuple[float, float, float, float]:
    client = KazooClient(hosts, handler=handler) if handler is not None else KazooClient(hosts)
    client.start(10)
    try:
        client.ensure_path("/bench")
        for i in range(NODES):
            client.ensure_path(f"/bench/n{i}")
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(reads):
            client.get("/bench/n1")
        sequential = (time.perf_counter() - wall) / reads
        sequential_cpu = (time.process_time() - cpu) / reads
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(reads // NODES):
            pending = [client.get_async(f"/bench/n{i}") for i in range(NODES)]
            for result in pending:
                result.get()
        done = reads // NODES * NODES
        return sequential, sequential_cpu, (time.perf_counter() - wall) / done, (time.process_time() - cpu) / done
    finally:
        client.stop()
        client.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reads", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    logging.getLogger("kazoo").setLevel(logging.ERROR)
    print(f"command: python bench/zk_client.py --reads {args.reads} --rounds {args.rounds}")
    with LocalZooKeeper() as zookeeper:
        figures: dict[str, list] = {"kazoo's threading handler": [], "polling handler": []}
        for _ in range(args.rounds):  # alternated, so both see the same machine
            figures["kazoo's threading handler"].append(measure(zookeeper.hosts, None, args.reads))
            figures["polling handler"].append(measure(zookeeper.hosts, PollingHandler(), args.reads))
    for name, rounds in figures.items():
        seq, seq_cpu, pipe, pipe_cpu = (statistics.median(r[i] for r in rounds) * 1e6 for i in range(4))
        print(
            f"{name:26s} sequential read {seq:5.0f} µs (client CPU {seq_cpu:4.0f} µs); "
            f"pipelined {pipe:5.0f} µs per read (client CPU {pipe_cpu:4.0f} µs)"
        )


if __name__ == "__main__":
    main()
