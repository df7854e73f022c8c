"""docs/grafana-dashboard.json: valid JSON that Grafana imports (a panel list with a
query each), and every metric its queries read is one the gateway exports — a renamed
metric must not leave the dashboard drawing empty panels."""

from __future__ import annotations

import json
import re
from pathlib import Path

from qlgate.server.exposition import gauges
from qlgate.server.metrics import Metrics

ROOT = Path(__file__).resolve().parents[2]
METRIC = re.compile(r"\bqlgate_[a-z_]+")


def exported() -> set[str]:
    families = Metrics().families
    gauges(
        families,
        [{"worker": 0, "cpu_seconds": 1.0, "rss_bytes": 1, "cache_entries": 0, "cache_bytes": 0, "cache_max_bytes": 1}],
    )
    names = set()
    for family in families.values():
        names.add(family.name)
        if family.kind == "histogram":
            names |= {f"{family.name}_bucket", f"{family.name}_sum", f"{family.name}_count"}
    return names | LIVE


# read from the stores when scraped (qlgate/server/metrics_live.py), not counted by Metrics
LIVE = {
    "qlgate_jobs",
    "qlgate_jobs_limit",
    "qlgate_limit_calls_held",
    "qlgate_quota_left_today",
    "qlgate_zookeeper_connected",
}


def test_the_live_names_are_the_ones_exported():
    import inspect

    from qlgate.server import metrics_live

    assert set(re.findall(r'Family\(\s*"(qlgate_[a-z_]+)"', inspect.getsource(metrics_live))) == LIVE


def test_every_query_reads_an_exported_metric():
    dashboard = json.loads((ROOT / "docs" / "grafana-dashboard.json").read_text())
    names = exported()
    read = set()
    assert dashboard["panels"]
    for panel in dashboard["panels"]:
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            found = set(METRIC.findall(target["expr"]))
            assert found, target["expr"]
            assert found <= names, (panel["title"], found - names)
            read |= found
    # the dashboard shows every family but the ones only a query by hand needs
    assert {"qlgate_requests_total", "qlgate_upstream_calls_total", "qlgate_limit_refusals_total"} <= read
