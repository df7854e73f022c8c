"""Jobs through the gateway: ``/jobs`` and ``/limits`` on a real ``qlgate serve``
process — embedded (SQLite, in-process) by default, or with ``--zookeeper``
beside real ``qlgate worker`` processes — driven by ``qlgate jobs --gateway``
and plain HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.jobs.observer import TABLES
from tests.sandbox.test_cli import free_port, stop, wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def setup(tmp_path, observer):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "partner.ql").write_text(TABLES)
    (tmp_path / "routes").mkdir()
    (tmp_path / "config.json").write_text(
        json.dumps(
            {"base": observer.base, "jobs": {"database": str(tmp_path / "jobs.sqlite"), "slots": 2, "maxQueue": 6}}
        )
    )
    (tmp_path / "job.ql").write_text('return select * from partner.a.call where ms = "{ms}" and job = "{label}"')
    return tmp_path


def serve(setup: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "qlgate",
            "serve",
            "--port",
            str(port),
            "--tables",
            str(setup / "tables"),
            "--routes",
            str(setup / "routes"),
            "--config",
            str(setup / "config.json"),
            *extra,
        ],
        cwd=setup,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # the access log, unread: a pipe would fill and block the gateway
        text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("EBAY_")},
    )
    base = f"http://127.0.0.1:{port}"
    wait_for(f"{base}/health", proc)
    return proc, base


def submit_until_running(base: str, setup: Path, ms: int) -> int:
    """A job of ``ms`` milliseconds, once its run has begun."""
    job_id = http(
        "POST", f"{base}/jobs", {"script": (setup / "job.ql").read_text(), "vars": {"ms": ms, "label": "long"}}
    )[2]["id"]
    deadline = time.time() + 10
    while http("GET", f"{base}/jobs/{job_id}")[2]["state"] != "running":
        assert time.time() < deadline
        time.sleep(0.05)
    return job_id


def http(method: str, url: str, body=None) -> tuple[int, dict, object]:
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


def jobs_cli(base: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "qlgate", "jobs", *args, "--gateway", base, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_embedded_jobs_through_the_rest_api_and_the_cli(setup, observer):
    proc, base = serve(setup)
    try:
        status, headers, answer = http(
            "POST",
            f"{base}/jobs",
            {"script": (setup / "job.ql").read_text(), "vars": {"ms": 50, "label": "rest"}, "priority": 2},
        )
        assert status == 202 and headers["Location"] == f"/jobs/{answer['id']}"
        submitted = jobs_cli(base, "submit", str(setup / "job.ql"), "--var", "ms=50", "--var", "label=cli")
        assert submitted.returncode == 0, submitted.stderr
        ids = [answer["id"], json.loads(submitted.stdout)["id"]]
        waited = jobs_cli(base, "wait", *map(str, ids), "--timeout", "20")
        assert waited.returncode == 0, waited.stderr
        assert [j["state"] for j in json.loads(waited.stdout)] == ["done", "done"]
        assert [j["types"] for j in json.loads(waited.stdout)] == [["partner.a"], ["partner.a"]]  # derived
        assert http("GET", f"{base}/jobs/{ids[0]}/result")[2] == {"type": "partner.a", "job": "rest"}
        assert json.loads(jobs_cli(base, "result", str(ids[1])).stdout) == {"type": "partner.a", "job": "cli"}

        limits = jobs_cli(base, "limits", "partner.a", "1")
        assert json.loads(limits.stdout)["partner.a"]["limit"] == 1
        assert http("GET", f"{base}/limits")[2]["partner.a"] == {"limit": 1, "running": 0, "waiting": 0}
        later = http("POST", f"{base}/jobs", {"script": "return 1", "types": ["t"], "not_before": "+1h"})[2]["id"]
        assert http("GET", f"{base}/jobs/{later}/result")[0] == 409
        assert [j["id"] for j in http("GET", f"{base}/jobs?state=queued")[2]] == [later]
        assert http("DELETE", f"{base}/jobs/{later}")[2]["state"] == "cancelled"
        state = http("GET", f"{base}/jobs/backend")[2]
        assert state["master"] == "embedded" and state["workers"]["embedded"]["slots"] == 2
        assert http("PUT", f"{base}/rates/partner.a", "20/s")[2] == {"partner.a": {"calls": 20, "per": "second"}}
        rates = jobs_cli(base, "rates", "partner.b", "5000/day@America/Los_Angeles")  # eBay's calendar
        ebay_day = {"calls": 5000, "per": "day", "timeZone": "America/Los_Angeles"}
        assert json.loads(rates.stdout)["partner.b"] == ebay_day
        assert http("PUT", f"{base}/rates/partner.a", {"calls": 5, "per": "week"})[0] == 400
        assert http("PUT", f"{base}/rates/partner.a")[0] == 400  # an empty body is a mistake
        assert http("PUT", f"{base}/rates/partner.a", b"null")[2] == {"partner.b": ebay_day}
    finally:
        stop(proc)


def test_bad_requests_get_clear_errors_and_a_full_queue_429(setup):
    proc, base = serve(setup)
    try:
        assert http("POST", f"{base}/jobs", b"{not json")[0] == 400
        assert http("POST", f"{base}/jobs", {"vars": {}})[0] == 400
        code, _, body = http("POST", f"{base}/jobs", {"script": "return 1", "varz": {"a": 1}})
        assert code == 400 and body["type"] == "UnknownMember" and '"varz" (did you mean "vars"?)' in body["err"]
        code, _, body = http("POST", f"{base}/jobs", {"script": "return selec 1"})
        assert code == 400 and body["type"] == "QlSyntaxError" and body["line"] == 1
        code, _, body = http("POST", f"{base}/jobs", {"script": "return 1", "types": ["t"], "priority": 10_000})
        assert code == 400 and "priority" in body["err"]
        assert http("GET", f"{base}/jobs/123456")[0] == 404
        assert http("GET", f"{base}/jobs/abc")[0] == 400
        for _ in range(6):
            assert http("POST", f"{base}/jobs", {"script": "return 1", "types": ["t"], "not_before": "+1h"})[0] == 202
        code, headers, body = http("POST", f"{base}/jobs", {"script": "return 1", "types": ["t"]})
        assert code == 429 and int(headers["Retry-After"]) >= 1
        assert http("GET", f"{base}/health")[0] == 200  # and it keeps serving
    finally:
        stop(proc)


def test_the_embedded_backend_survives_a_gateway_restart(setup, observer):
    proc, base = serve(setup)
    job_id = submit_until_running(base, setup, ms=3000)
    stop(proc)
    proc, base = serve(setup)
    try:
        job = http("GET", f"{base}/jobs/{job_id}?wait=20")[2]
        assert job["state"] == "done" and job["run"] == 2
    finally:
        stop(proc)


def test_a_gateway_on_zookeeper_takes_jobs_that_workers_run(setup, zk_hosts, observer):
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "qlgate",
            "worker",
            "--zookeeper",
            zk_hosts,
            "--tables",
            str(setup / "tables"),
            "--config",
            str(setup / "config.json"),
            "--name",
            "w1",
            "--session-timeout",
            "2",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    proc, base = serve(setup, "--zookeeper", zk_hosts)
    try:
        assert http("PUT", f"{base}/limits/partner.a", {"limit": 3})[0] == 200
        ids = [
            http(
                "POST",
                f"{base}/jobs",
                {"script": (setup / "job.ql").read_text(), "vars": {"ms": 100, "label": f"z{i}"}},
            )[2]["id"]
            for i in range(6)
        ]
        waited = jobs_cli(base, "wait", *map(str, ids), "--timeout", "30")
        assert waited.returncode == 0, waited.stderr
        assert {j["attempts"][0]["worker"] for j in json.loads(waited.stdout)} == {"w1"}
        assert observer.max_in_flight["partner.a"] == 3
        state = http("GET", f"{base}/jobs/backend")[2]
        assert state["backend"] == "ZkJobs" and state["master"] == "w1" and "w1" in state["workers"]
    finally:
        stop(proc)
        worker.terminate()
        worker.wait(15)


def test_several_gateway_processes_share_the_embedded_backend(setup, observer):
    """With --workers 2 both processes take submissions and answer queries; the first
    runs the jobs, and sees the other's submissions and cancel requests through SQLite."""
    proc, base = serve(setup, "--workers", "2")
    try:
        pids = set()
        deadline = time.monotonic() + 20
        while len(pids) < 2:  # both processes answer on the port
            assert time.monotonic() < deadline
            health = urllib.request.Request(f"{base}/health", headers={"Connection": "close"})
            pids.add(json.loads(urllib.request.urlopen(health, timeout=30).read())["pid"])
        ids = []
        for i in range(10):  # fresh connections: the processes share the submissions
            request = urllib.request.Request(
                f"{base}/jobs",
                method="POST",
                headers={"Connection": "close", "Content-Type": "application/json"},
                data=json.dumps(
                    {"script": (setup / "job.ql").read_text(), "vars": {"ms": 30, "label": f"p{i}"}}
                ).encode(),
            )
            ids.append(json.loads(urllib.request.urlopen(request, timeout=30).read())["id"])
            assert http("GET", f"{base}/jobs/{ids[-1]}?wait=20")[2]["state"] == "done"
        assert len(set(ids)) == 10
        long = submit_until_running(base, setup, ms=5000)
        for _ in range(4):  # whichever process takes it, the run stops
            http("DELETE", f"{base}/jobs/{long}")
        job = http("GET", f"{base}/jobs/{long}?wait=10")[2]
        assert job["state"] == "cancelled" and job["ended"] - job["started"] < 4
    finally:
        stop(proc)
