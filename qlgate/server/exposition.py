"""``GET /metrics``: the gateway's counts (``metrics.py``), every worker's merged
(``metrics_share.py``), with what is read only when scraped — the response cache's
memory and entries, each process's CPU and resident memory — in the text format
Prometheus scrapes (version 0.0.4). Written here rather than through
``prometheus_client``: the format is a few lines of text, and the gateway needs
no dependency to serve it (the tests parse it with that package's own parser).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .metrics import BUCKETS, Family, copy_families, merge_into
from .metrics_live import live_families
from .response import Response

if TYPE_CHECKING:
    from .request import Request

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def gauges(metrics_families: dict[str, Family], per_process: list[dict[str, Any]]) -> None:
    """Add the gauges of each process (``metrics_share.process_stats``) to the families."""
    cpu = Family("qlgate_process_cpu_seconds_total", "counter", "CPU seconds of each gateway process.", ("worker",))
    rss = Family(
        "qlgate_process_resident_memory_bytes", "gauge", "Resident memory of each gateway process.", ("worker",)
    )
    entries = Family("qlgate_cache_entries", "gauge", "Entries in the in-process response caches (all workers).")
    memory = Family("qlgate_cache_memory_bytes", "gauge", "Bytes held by the in-process response caches.")
    limit = Family("qlgate_cache_memory_limit_bytes", "gauge", "The caches' bound (cache.maxBytes), all workers.")
    for stats in per_process:
        worker = (str(stats.get("worker", 0)),)
        cpu.values[worker] = stats.get("cpu_seconds", 0.0)
        rss.values[worker] = stats.get("rss_bytes", 0)
        if "cache_entries" in stats:
            entries.add((), stats["cache_entries"])
            memory.add((), stats["cache_bytes"])
            limit.add((), stats["cache_max_bytes"])
    for family in (cpu, rss, entries, memory, limit):
        if family.values:
            metrics_families[family.name] = family
    calls = metrics_families["qlgate_upstream_calls_total"].values
    hits = sum(v for (_, _, outcome), v in calls.items() if outcome in ("cache", "stale"))
    sent = sum(v for (_, _, outcome), v in calls.items() if outcome == "sent")
    ratio = Family("qlgate_cache_hit_ratio", "gauge", "Cache hits over calls answered from the cache or sent.")
    ratio.values[()] = hits / (hits + sent) if hits + sent else 0.0
    metrics_families[ratio.name] = ratio


def render(families: dict[str, Family]) -> str:
    """The families in Prometheus's text format."""
    out: list[str] = []
    for family in families.values():
        out.append(f"# HELP {family.name} {_help(family.help)}")
        out.append(f"# TYPE {family.name} {family.kind}")
        names = family.labels
        for key in sorted(family.values):
            value = family.values[key]
            pairs = [f'{n}="{_escape(v)}"' for n, v in zip(names, key)]
            if family.kind != "histogram":
                out.append(f"{family.name}{_labels(pairs)} {_number(value)}")
                continue
            running = 0
            for bound, count in zip((*BUCKETS, math.inf), value):
                running += count
                le = "+Inf" if bound == math.inf else repr(bound)
                bucket = [*pairs, 'le="' + le + '"']
                out.append(f"{family.name}_bucket{_labels(bucket)} {_number(running)}")
            out.append(f"{family.name}_sum{_labels(pairs)} {_number(value[-2])}")
            out.append(f"{family.name}_count{_labels(pairs)} {_number(value[-1])}")
    return "\n".join(out) + "\n"


async def handle_metrics(request: Request) -> Response:
    """``GET /metrics`` (scope ``admin`` when keys are configured): this process's counts
    with the other workers' last snapshots, and each process's gauges."""
    gateway = request.gateway
    metrics = gateway.metrics
    if metrics is None:
        return Response(b"", content_type=CONTENT_TYPE)
    share = gateway.metrics_share
    families = copy_families(metrics.families)
    if share is not None:
        snapshots, stats = share.others()
        merge_into(families, snapshots)
        per_process = [share.own_stats(), *stats]
    else:
        from .metrics_share import process_stats

        per_process = [process_stats(gateway, 0)]
    gauges(families, per_process)
    for family in await live_families(gateway):  # the deployment's: read, not added across workers
        families[family.name] = family
    return Response(render(families).encode(), content_type=CONTENT_TYPE)


def _labels(pairs: list[str]) -> str:
    return "{" + ",".join(pairs) + "}" if pairs else ""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def _number(value: float) -> str:
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return str(int(value))
    return repr(float(value))
