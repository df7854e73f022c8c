"""Limits on every call, through real ``qlgate serve`` processes: two gateways on
one host share the embedded store, two on ZooKeeper share the cluster's, and a
job's calls and a caller's ``/q`` count against the same limit. The witness is
the partner's own count (``tests/jobs/observer.py``)."""

from __future__ import annotations

import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from qlgate.limits.slots import busiest_window
from tests.sandbox.test_cli import stop
from tests.server.test_jobs_api import http, serve
from tests.server.test_jobs_api import setup as setup  # a fixture: partner tables, an embedded job database


def query(base: str, script: str, diagnostics: bool = False) -> tuple[int, dict, object]:
    url = f"{base}/q?s={urllib.parse.quote(script)}" + ("&diagnostics=1" if diagnostics else "")
    return http("GET", url)


def call(ms: int, label: str, api: str = "a") -> str:
    return f'return select * from partner.{api}.call where ms = "{ms}" and job = "{label}"'


def gateways(setup: Path, count: int, *extra: str) -> list:
    started = []
    try:
        for _ in range(count):
            started.append(serve(setup, *extra))
    except BaseException:
        for proc, _ in started:
            stop(proc)
        raise
    return started


def test_two_gateways_on_one_host_hold_one_limit(setup, observer):
    (first, a), (second, b) = gateways(setup, 2)
    try:
        assert http("PUT", f"{a}/limits/partner.a", {"limit": 2})[0] == 200
        with ThreadPoolExecutor(10) as pool:
            burst = pool.map(lambda i: query((a, b)[i % 2], call(300, f"g{i}")), range(10))
            deadline = time.monotonic() + 10
            while observer.in_flight["partner.a"] < 2:
                assert time.monotonic() < deadline, "the burst never reached the partner"
                time.sleep(0.02)
            live = http("GET", f"{b}/limits")[2]  # while the burst goes on
            answers = list(burst)
        assert [status for status, _, _ in answers] == [200] * 10
        assert observer.max_in_flight["partner.a"] == 2  # reached, never passed, by the two together
        assert live["partner.a"]["limit"] == 2 and live["partner.a"]["calls"]["held"] == 2
    finally:
        stop(first)
        stop(second)


def test_a_jobs_calls_and_a_callers_calls_share_a_limit(setup, observer):
    (proc, base) = gateways(setup, 1)[0]
    try:
        assert http("PUT", f"{base}/limits/partner.a", {"limit": 1})[0] == 200
        job = http("POST", f"{base}/jobs", {"script": call(1500, "job")})[2]["id"]
        deadline = time.monotonic() + 20
        while observer.in_flight["partner.a"] < 1:
            assert time.monotonic() < deadline, "the job's call never began"
            time.sleep(0.02)
        began = time.monotonic()
        status, _, answer = query(base, call(10, "caller"), diagnostics=True)
        assert status == 200 and time.monotonic() - began > 0.5  # it waited for the job's call
        assert answer["diagnostics"]["queued_ms"] > 500
        assert answer["diagnostics"]["calls"][0]["queued_ms"] > 500
        assert http("GET", f"{base}/jobs/{job}?wait=20")[2]["state"] == "done"
        assert observer.max_in_flight["partner.a"] == 1
    finally:
        stop(proc)


def test_a_call_over_its_limit_is_a_429_with_retry_after(setup, observer):
    (proc, base) = gateways(setup, 1)[0]
    try:
        assert http("PUT", f"{base}/limits/partner.b", {"limit": 0})[0] == 200
        status, headers, answer = query(base, call(1, "shut", "b") + " timeout 300")
        assert status == 429 and int(headers["Retry-After"]) >= 1
        assert "partner.b" in answer["err"] and observer.calls["partner.b"] == 0
    finally:
        stop(proc)


def test_a_per_second_rate_and_a_limit_hold_across_gateways_on_zookeeper(setup, observer, zk_hosts):
    (first, a), (second, b) = gateways(setup, 2, "--zookeeper", zk_hosts)
    try:
        assert http("PUT", f"{a}/rates/partner.a", "5/s")[0] == 200
        assert http("PUT", f"{b}/limits/partner.b", {"limit": 2})[0] == 200
        deadline = time.monotonic() + 10
        while True:  # the watches bring both records to the other gateway
            seen = [http("GET", f"{base}/rates")[2].get("partner.a") for base in (a, b)]
            limits = [http("GET", f"{base}/limits")[2].get("partner.b", {}).get("limit") for base in (a, b)]
            if all(seen) and limits == [2, 2]:
                break
            assert time.monotonic() < deadline, (seen, limits)
            time.sleep(0.05)
        with ThreadPoolExecutor(20) as pool:
            rated = pool.map(lambda i: query((a, b)[i % 2], call(1, f"r{i}")), range(20))
            held = pool.map(lambda i: query((a, b)[i % 2], call(150, f"h{i}", "b")), range(8))
            answers = [*rated, *held]
        assert [status for status, _, _ in answers] == [200] * 28
        starts = [t for t, kind, _ in observer.started if kind == "partner.a"]
        assert len(starts) == 20 and busiest_window(starts) <= 5
        assert observer.max_in_flight["partner.b"] == 2
    finally:
        stop(first)
        stop(second)
