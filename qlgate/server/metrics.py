"""What ``GET /metrics`` counts, gathered where the gateway already looks: once per
answered request, at the access log's point of the pipeline, from the request and
the ``CallRecord``s its run left. Nothing is added to an upstream call's own path:
a call is counted after its run, from the record the run keeps anyway.

The counts live in plain dictionaries keyed by label tuples (``Family``), so one
request costs a few dictionary updates; ``snapshot`` turns them into JSON that
another process can merge (``metrics_share.py``: ``--workers``) and that
``exposition.py`` renders in Prometheus's text format.

Labels are bounded by construction: an endpoint is the router's pattern (never
the path), a route is the routes tree's pattern, a table is one of the
deployer's tables — a caller's own ``create table`` counts as ``(caller)``, since
its name is the caller's to choose — and a method outside HTTP's usual ones is
``other``. No URL, id, key or query text ever becomes a label.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import QlError

if TYPE_CHECKING:
    from ..diagnostics import Diagnostics
    from ..limits.api_types import ApiTypes
    from ..tables.registry import TableRegistry

# seconds; Prometheus's usual spread, from a cache hit's milliseconds to a slow partner's seconds
BUCKETS: tuple[float, ...] = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
CALLER = "(caller)"  # a caller's own table, whatever it named it


class Family:
    """One metric: its name, type, help and label names, and a value per label tuple
    (a number; for a histogram, the count per bucket, then the sum and the count)."""

    __slots__ = ("help", "kind", "labels", "name", "values")

    def __init__(self, name: str, kind: str, help: str, labels: tuple[str, ...] = ()):
        self.name, self.kind, self.help, self.labels = name, kind, help, labels
        self.values: dict[tuple[str, ...], Any] = {}

    def add(self, key: tuple[str, ...], amount: float = 1) -> None:
        values = self.values
        values[key] = values.get(key, 0) + amount

    def observe(self, key: tuple[str, ...], seconds: float) -> None:
        """A histogram's observation (buckets non-cumulative here; ``exposition`` sums them)."""
        counts = self.values.get(key)
        if counts is None:
            counts = self.values[key] = [0] * (len(BUCKETS) + 3)
        counts[bisect_left(BUCKETS, seconds)] += 1
        counts[-2] += seconds
        counts[-1] += 1


def _families() -> dict[str, Family]:
    found = [
        Family(
            "qlgate_requests_total",
            "counter",
            "Requests answered, by endpoint, route, method and status.",
            ("endpoint", "route", "method", "status"),
        ),
        Family(
            "qlgate_request_duration_seconds",
            "histogram",
            "Time to answer a request (the access log's ms).",
            ("endpoint", "route"),
        ),
        Family("qlgate_request_bytes_total", "counter", "Request body bytes received.", ("endpoint",)),
        Family(
            "qlgate_response_bytes_total", "counter", "Response body bytes sent (after compression).", ("endpoint",)
        ),
        Family(
            "qlgate_upstream_calls_total",
            "counter",
            "Upstream calls of runs, by API type, table and outcome: sent, cache, stale (a stale cache hit), "
            "coalesced (shared with another request's identical call) or cancelled (given up by its run).",
            ("api", "table", "outcome"),
        ),
        Family(
            "qlgate_upstream_responses_total",
            "counter",
            "Calls sent upstream that ended, by status class (2xx…5xx) or error (no answer).",
            ("api", "table", "code"),
        ),
        Family("qlgate_upstream_call_duration_seconds", "histogram", "Time of calls sent upstream.", ("api", "table")),
        Family("qlgate_upstream_bytes_total", "counter", "Bytes of upstream answers received.", ("api", "table")),
        Family(
            "qlgate_upstream_waits_total",
            "counter",
            "Calls that waited before they were sent: reason backoff, retry-after or limit (queued for "
            "the API type's limits).",
            ("api", "reason"),
        ),
        Family(
            "qlgate_upstream_wait_seconds_total",
            "counter",
            "Seconds calls waited before they were sent.",
            ("api", "reason"),
        ),
        Family(
            "qlgate_limit_refusals_total",
            "counter",
            "Calls refused by their API type's limits (429 LimitExceeded), by limit.",
            ("api", "limit"),
        ),
        Family(
            "qlgate_coalesced_reads_total",
            "counter",
            "Identical reads within one run made once (not in the upstream calls).",
        ),
        # serve --probe-every: set by the first worker's probes (``probing.py``), none otherwise
        Family(
            "qlgate_table_probe_up",
            "gauge",
            "1 when the table's Example answered with its last good shape, 0 when it failed or changed.",
            ("table",),
        ),
        Family("qlgate_table_probe_duration_seconds", "gauge", "Time the table's last probe took.", ("table",)),
    ]
    return {family.name: family for family in found}


class Metrics:
    """One process's counts (see the module's doc). ``tables`` and ``api_types``: the
    deployer's, which name the table and API labels."""

    def __init__(self, tables: TableRegistry | None = None, api_types: ApiTypes | None = None):
        self.tables, self.api_types = tables, api_types
        self.families = _families()
        f = self.families
        self._requests, self._request_seconds = f["qlgate_requests_total"], f["qlgate_request_duration_seconds"]
        self._bytes_in, self._bytes_out = f["qlgate_request_bytes_total"], f["qlgate_response_bytes_total"]
        self._calls, self._responses = f["qlgate_upstream_calls_total"], f["qlgate_upstream_responses_total"]
        self._call_seconds, self._upstream_bytes = (
            f["qlgate_upstream_call_duration_seconds"],
            f["qlgate_upstream_bytes_total"],
        )
        self._waits, self._wait_seconds = f["qlgate_upstream_waits_total"], f["qlgate_upstream_wait_seconds_total"]
        self._refusals, self._coalesced = f["qlgate_limit_refusals_total"], f["qlgate_coalesced_reads_total"]
        self._labels: dict[str, tuple[str, str]] = {}  # deployer's table → (api, table)
        self.changes = 0  # bumped by every request: a writer skips an unchanged snapshot

    # ------------------------------------------------------------------ counting
    def request(
        self,
        endpoint: str,
        route: str,
        method: str,
        status: int,
        seconds: float,
        bytes_in: int,
        bytes_out: int,
        calls: Diagnostics | None,
    ) -> None:
        """One answered request (the access log's point of ``pipeline.answer``)."""
        self.changes += 1
        if method not in METHODS:
            method = "other"
        self._requests.add((endpoint, route, method, str(status)))
        self._request_seconds.observe((endpoint, route), seconds)
        if bytes_in:
            self._bytes_in.add((endpoint,), bytes_in)
        self._bytes_out.add((endpoint,), bytes_out)
        if calls is not None:
            self.run(calls)

    def run(self, diagnostics: Diagnostics) -> None:
        """A run's calls, from its ``CallRecord``s, and its refusals by limits."""
        if diagnostics.coalesced:
            self._coalesced.add((), diagnostics.coalesced)
        if diagnostics.refused:  # API types with a configured limit: the deployer's names
            for api, limit in diagnostics.refused:
                self._refusals.add((api, limit))
        labels_of = self.label
        for call in diagnostics.calls:
            api, table = labels = labels_of(call.table)
            source = call.source
            if source == "sent":
                if call.cancelled:
                    self._calls.add((api, table, "cancelled"))
                    continue
                self._calls.add((api, table, "sent"))
                status = call.status
                self._responses.add((api, table, f"{status // 100}xx" if status else "error"))
                self._call_seconds.observe(labels, call.duration)
                if call.bytes:
                    self._upstream_bytes.add(labels, call.bytes)
                if call.wait is not None and call.waited:
                    self._waits.add((api, call.wait))
                    self._wait_seconds.add((api, call.wait), call.waited)
                if call.queued:
                    self._waits.add((api, "limit"))
                    self._wait_seconds.add((api, "limit"), call.queued)
            elif source == "cache":
                self._calls.add((api, table, "stale" if call.stale else "cache"))
            else:
                self._calls.add((api, table, source))

    def label(self, name: str) -> tuple[str, str]:
        """The (api, table) labels of a call of the table ``name``: a deployer's table by
        its name and API type, anything else ``(caller)`` — bounded either way."""
        found = self._labels.get(name)
        if found is not None:
            return found
        tables = self.tables
        try:  # the exact name: a caller's own ``items`` is not the deployer's ``shop.items``
            table = tables.find(name) if tables is not None else None
        except QlError:  # an ambiguous suffix: not one of the deployer's names
            table = None
        if table is None or table.name != name:
            return (CALLER, CALLER)
        api = self.api_types.of(name) if self.api_types is not None else name.rpartition(".")[0]
        found = self._labels[name] = (api, name)
        return found

    # ------------------------------------------------------------------ across processes
    def snapshot(self) -> dict[str, list[list[Any]]]:
        """The counts as JSON: metric name → [[label values…], value] pairs."""
        return {name: [[list(key), value] for key, value in f.values.items()] for name, f in self.families.items()}

    def load(self, snapshot: dict[str, list[list[Any]]]) -> None:
        """Continue from a snapshot (a worker started again in a dead one's place): its
        counters stay monotonic across the restart."""
        merge_into(self.families, [snapshot])


def merge_into(families: dict[str, Family], snapshots: Iterable[dict[str, list[list[Any]]]]) -> None:
    """Add ``snapshots`` (other processes') to ``families``: counters and gauges sum,
    histograms sum bucket by bucket. Unknown names are skipped (another version's)."""
    for snapshot in snapshots:
        for name, pairs in snapshot.items():
            family = families.get(name)
            if family is None:
                continue
            values = family.values
            for labels, value in pairs:
                key = tuple(labels)
                if isinstance(value, list):
                    mine = values.get(key)
                    if mine is None or len(mine) != len(value):
                        values[key] = list(value)
                    else:
                        values[key] = [a + b for a, b in zip(mine, value)]
                else:
                    values[key] = values.get(key, 0) + value


def copy_families(families: dict[str, Family]) -> dict[str, Family]:
    """A copy to merge other processes' counts into, leaving this process's own alone."""
    copied: dict[str, Family] = {}
    for name, family in families.items():
        new = copied[name] = Family(family.name, family.kind, family.help, family.labels)
        new.values = {k: (list(v) if isinstance(v, list) else v) for k, v in family.values.items()}
    return copied
