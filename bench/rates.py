"""A per-second call rate under more demand than it allows: the calls a second
achieved against the configured N (and the N/(1 + g) the slot arithmetic
promises, qlgate/limits/slots.py), and the most calls any sliding one-second
window saw — in memory (the embedded backend: one gate, all callers) and in
ZooKeeper (a gate per worker, each with its own session and event loop, against
a real server from the Debian package on a free loopback port).

    python bench/rates.py [--rate 20] [--seconds 5] [--workers 3] [--callers 8]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from qlgate.jobs.zk.session import zk_client
from qlgate.limits.rate import Rate
from qlgate.limits.rates import CallGate
from qlgate.limits.slots import busiest_window, promised_share
from qlgate.limits.stores.memory import MemoryTokens
from qlgate.limits.stores.zk_rates import ZkTokens
from tests.servers.zookeeper import LocalZooKeeper

TABLE = "bench.rated.call"


async def spend(gate: CallGate, callers: int, until: float, times: list[float]) -> None:
    """``callers`` calling back to back until ``until``; then the gate gives back what it holds."""

    async def caller() -> None:
        while True:
            await gate(TABLE)
            times.append(time.monotonic())

    tasks = [asyncio.ensure_future(caller()) for _ in range(callers)]
    await asyncio.sleep(until - time.monotonic())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.to_thread(gate.give_back)


def in_memory(rate: Rate, seconds: float, callers: int) -> list[float]:
    tokens = MemoryTokens()
    tokens.rates["bench.rated"] = rate
    times: list[float] = []
    asyncio.run(spend(CallGate(tokens), callers, time.monotonic() + seconds, times))
    return times


def in_zookeeper(hosts: str, rate: Rate, seconds: float, workers: int, callers: int) -> tuple[list[float], int]:
    clients = [zk_client(hosts) for _ in range(workers)]
    try:
        for client in clients:
            client.start(10)
        ZkTokens(clients[0]).set_rate("bench.rated", rate)
        gates = [CallGate(ZkTokens(client)) for client in clients]
        times: list[float] = []
        until = time.monotonic() + seconds
        threads = [
            threading.Thread(target=lambda g=gate: asyncio.run(spend(g, callers, until, times))) for gate in gates
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        writes = clients[0].get("/qlgate/tokens/bench.rated/slots")[1].version
        return times, writes
    finally:
        for client in clients:
            client.stop()
            client.close()


def report(name: str, times: list[float], seconds: float, rate: Rate, leases: str = "") -> None:
    achieved = len(times) / seconds
    print(
        f"{name:34s} {achieved:7.2f} calls/s of {rate.calls}/s ({achieved / rate.calls:5.1%}; "
        f"{promised_share():.1%} promised); busiest sliding second {busiest_window(times)}{leases}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--callers", type=int, default=8)
    args = parser.parse_args()
    logging.getLogger("kazoo").setLevel(logging.ERROR)
    rate = Rate(args.rate, "second")
    print(
        f"command: python bench/rates.py --rate {args.rate} --seconds {args.seconds:g} "
        f"--workers {args.workers} --callers {args.callers}"
    )
    report(
        f"memory, {args.workers * args.callers} callers",
        in_memory(rate, args.seconds, args.workers * args.callers),
        args.seconds,
        rate,
    )
    with LocalZooKeeper() as zookeeper:
        times, writes = in_zookeeper(zookeeper.hosts, rate, args.seconds, args.workers, args.callers)
    report(
        f"zookeeper, {args.workers} workers × {args.callers} callers",
        times,
        args.seconds,
        rate,
        f"; {writes} leases for {len(times)} calls",
    )


if __name__ == "__main__":
    main()
