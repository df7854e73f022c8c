"""The gauges of ``/metrics`` that are the deployment's, not one process's: jobs running
and waiting and the limit per API type (the job backend's), calls held against each
type's limits and what is left of a daily quota (the limits store every process
shares), and the ZooKeeper session. Read when scraped — from the store, off the event
loop, within ``READ_SECONDS`` — by whichever worker answers, and never added across
workers (the store already counts them all).

Job types are names a job's submitter may choose, so a type that is neither the API
type of one of the deployer's tables nor has a limit or a rate set is counted under
``(other)``: the number of series stays the deployer's.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from .metrics import Family

if TYPE_CHECKING:
    from .gateway import Gateway

log = logging.getLogger("qlgate.server")

READ_SECONDS = 2.0
OTHER = "(other)"


async def live_families(gateway: Gateway) -> list[Family]:
    """The deployment's gauges (see the module's doc); what cannot be read in time is left out."""
    engine = gateway.workspace.engine
    jobs: Any = gateway.jobs
    limits = engine.limits
    reads: dict[str, Any] = {}
    if jobs is not None:
        reads["job_counts"] = asyncio.to_thread(jobs.limits)
    if limits is not None:
        reads["call_usage"] = asyncio.to_thread(limits.usage)
    results = await asyncio.gather(*(asyncio.wait_for(r, READ_SECONDS) for r in reads.values()), return_exceptions=True)
    read = dict(zip(reads, results))
    known = _known_types(gateway)
    families = []
    by_jobs = read.get("job_counts")
    if isinstance(by_jobs, dict):
        count = Family("qlgate_jobs", "gauge", "Jobs running and waiting, by API type.", ("api", "state"))
        limit = Family("qlgate_jobs_limit", "gauge", "Jobs of an API type that may run at once.", ("api",))
        for api, entry in by_jobs.items():
            name = api if api in known or entry.get("limit") is not None else OTHER
            count.add((name, "running"), entry.get("running", 0))
            count.add((name, "waiting"), entry.get("waiting", 0))
            if entry.get("limit") is not None:
                limit.values[(name,)] = entry["limit"]
        families += [count, limit]
    elif by_jobs is not None:
        log.warning("metrics: the job backend's counts were not read: %s", type(by_jobs).__name__)
    by_calls = read.get("call_usage")
    if isinstance(by_calls, dict):
        held = Family(
            "qlgate_limit_calls_held",
            "gauge",
            "Units of an API type's calls-in-flight limit held by every process.",
            ("api",),
        )
        left = Family("qlgate_quota_left_today", "gauge", "Calls left of an API type's daily quota.", ("api",))
        for api, entry in by_calls.items():
            if "held" in entry:
                held.values[(api,)] = entry["held"]
            if "leftToday" in entry:
                left.values[(api,)] = entry["leftToday"]
        families += [held, left]
    client = getattr(jobs, "client", None)
    if client is not None and hasattr(client, "state"):
        session = Family(
            "qlgate_zookeeper_connected", "gauge", "1 while this process's ZooKeeper session is connected."
        )
        session.values[()] = 1 if str(client.state).upper() == "CONNECTED" else 0
        families.append(session)
    return families


def _known_types(gateway: Gateway) -> set[str]:
    """The API types of the deployer's tables (``ApiTypes.of`` caches each name's)."""
    engine = gateway.workspace.engine
    return {engine.api_types.of(name) for name in engine.tables.names()}
