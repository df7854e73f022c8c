"""A real Prometheus (Debian's ``prometheus`` package, .ci/install-system-packages)
scrapes ``qlgate serve --workers 2`` under a short load; its query API must return
the counts the load made, whichever worker answered each request and each scrape:
every request counted once, each upstream call once, cache hits as hits."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.sandbox.test_cli import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]

PROMETHEUS = shutil.which("prometheus")
pytestmark = pytest.mark.skipif(
    PROMETHEUS is None and not os.environ.get("CI"), reason="Debian's prometheus is not installed"
)


class Partner(BaseHTTPRequestHandler):
    calls = 0
    lock = threading.Lock()

    def do_GET(self):
        with Partner.lock:
            Partner.calls += 1
        body = b'{"id": 1}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def query(prom: str, expr: str) -> float | None:
    url = f"{prom}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=5) as resp:
        result = json.loads(resp.read())["data"]["result"]
    return float(result[0]["value"][1]) if result else None


def until(prom: str, expr: str, expected: float, seconds: float = 30) -> float | None:
    deadline = time.monotonic() + seconds
    got = None
    while time.monotonic() < deadline:
        got = query(prom, expr)
        if got == expected:
            return got
        time.sleep(0.5)
    return got


def test_prometheus_scrapes_two_workers(tmp_path):
    partner = ThreadingHTTPServer(("127.0.0.1", 0), Partner)
    threading.Thread(target=partner.serve_forever, daemon=True).start()
    (tmp_path / "tables").mkdir()
    (tmp_path / "routes").mkdir()
    base = f"http://127.0.0.1:{partner.server_address[1]}"
    (tmp_path / "tables" / "items.ql").write_text(
        f"create table shop.items on select get from '{base}/items?id={{id}}' expires 60"
    )
    (tmp_path / "routes" / "items.ql").write_text(
        'return select * from shop.items where id = "{id}" via route "/items/{id}" using method get'
    )
    (tmp_path / "config.json").write_text("{}")
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    gateway = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "2", "--config", "config.json"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    prom_port = free_port()
    (tmp_path / "prometheus.yml").write_text(
        "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
        "scrape_configs:\n"
        f"  - job_name: qlgate\n    static_configs: [{{targets: ['127.0.0.1:{port}']}}]\n"
    )
    prometheus = None
    try:
        wait_for(f"http://127.0.0.1:{port}/health", gateway)
        requests = 0
        for n in range(12):  # fresh connections: the kernel spreads them over both workers
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            for _ in range(3):  # one keep-alive connection: one worker, the second and third from its cache
                connection.request("GET", f"/items/{n}")
                response = connection.getresponse()
                assert response.status == 200, response.read()
                response.read()
                requests += 1
            connection.close()
        sent = Partner.calls
        assert 12 <= sent < requests  # a worker's cache answered at least the repeats on its connection
        time.sleep(1.5)  # every worker's snapshot written (metrics_share.FLUSH_SECONDS)
        # every worker that answers a scrape sees all of it
        seen = set()
        for _ in range(10):
            request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics", headers={"Connection": "close"})
            with urllib.request.urlopen(request, timeout=5) as resp:
                families = {f.name: f for f in text_string_to_metric_families(resp.read().decode())}
            calls = {
                s.labels["outcome"]: s.value
                for s in families["qlgate_upstream_calls"].samples
                if s.name == "qlgate_upstream_calls_total"
            }
            assert calls == {"sent": sent, "cache": requests - sent}
            seen.add(frozenset(s.labels["worker"] for s in families["qlgate_process_cpu_seconds"].samples))
        assert seen == {frozenset({"0", "1"})}
        prometheus = subprocess.Popen(
            [
                PROMETHEUS or "prometheus",
                f"--config.file={tmp_path / 'prometheus.yml'}",
                f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{prom_port}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=(tmp_path / "prometheus.log").open("w"),
        )
        prom = f"http://127.0.0.1:{prom_port}"
        wait_for(f"{prom}/-/ready", prometheus, timeout=60)
        assert until(prom, 'up{job="qlgate"}', 1) == 1
        route = 'endpoint="/{tail}",route="GET /items/{id}",status="200"'
        assert until(prom, f"sum(qlgate_requests_total{{{route}}})", requests) == requests
        assert until(prom, 'sum(qlgate_upstream_calls_total{outcome="sent",table="shop.items"})', sent) == sent
        assert until(prom, 'sum(qlgate_upstream_calls_total{outcome="cache"})', requests - sent) == requests - sent
        assert until(prom, 'sum(qlgate_upstream_call_duration_seconds_count{api="shop"})', sent) == sent
        assert until(prom, "count(qlgate_process_resident_memory_bytes)", 2) == 2
        ratio = query(prom, "qlgate_cache_hit_ratio")
        assert ratio == pytest.approx((requests - sent) / requests)
        # the dashboard's queries are PromQL Prometheus accepts, and most have data here
        dashboard = json.loads((ROOT / "docs" / "grafana-dashboard.json").read_text())
        deadline = time.monotonic() + 30
        while (query(prom, 'count_over_time(up{job="qlgate"}[1m])') or 0) < 4:  # a rate needs samples
            assert time.monotonic() < deadline
            time.sleep(0.5)
        answered = 0
        for panel in dashboard["panels"]:
            for target in panel["targets"]:
                expr = target["expr"].replace("$__rate_interval", "1m")
                url = f"{prom}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
                with urllib.request.urlopen(url, timeout=5) as resp:
                    reply = json.loads(resp.read())
                assert reply["status"] == "success", (panel["title"], reply)
                answered += bool(reply["data"]["result"])
        assert answered >= 8
    finally:
        if prometheus is not None:
            prometheus.terminate()
            prometheus.wait(20)
        gateway.send_signal(signal.SIGTERM)
        assert gateway.wait(30) == 0
        partner.shutdown()
