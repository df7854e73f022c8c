"""``JobSpec``: a submission as one frozen value, passed whole to every backend's
``submit`` (the contract suite runs it on the embedded and ZooKeeper backends; this
file checks the value itself and the REST client's half)."""

from __future__ import annotations

import dataclasses
import inspect
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

from qlgate.jobs.local import LocalJobs
from qlgate.jobs.model import JobError, JobSpec, new_job
from qlgate.jobs.rest_client import GatewayJobs
from qlgate.jobs.zk.client import ZkJobs


def test_a_spec_is_frozen_and_keeps_its_types_as_a_tuple():
    spec = JobSpec("return 1;", types=["partner.b", "partner.a"], vars={"n": 1}, priority=5)
    assert spec.types == ("partner.b", "partner.a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.priority = 6  # type: ignore[misc]
    with pytest.raises(JobError, match="not a string"):
        JobSpec("return 1;", types="partner.a")  # type: ignore[arg-type]
    with pytest.raises(JobError, match="list of type names"):
        JobSpec("return 1;", types=7)  # type: ignore[arg-type]


def test_new_job_takes_every_field_of_the_spec_and_checks_them():
    spec = JobSpec(
        "return {n};",
        types=["partner.b", "partner.a", "partner.a"],
        vars={"n": 1},
        priority=5,
        not_before=12.5,
        max_attempts=4,
        max_seconds=30,
        trust="caller",
        owner="shop",
        policy={"inlineTables": False},
    )
    job = new_job(7, spec, max_run_seconds=60)
    assert (job.id, job.script, job.types, job.vars) == (7, "return {n};", ["partner.a", "partner.b"], {"n": 1})
    assert (job.priority, job.not_before, job.max_attempts, job.max_seconds) == (5, 12.5, 4, 30)
    assert (job.trust, job.owner, job.policy) == ("caller", "shop", {"inlineTables": False})
    with pytest.raises(JobError, match="max_seconds"):
        new_job(0, dataclasses.replace(spec, max_seconds=61), max_run_seconds=60)
    with pytest.raises(JobError, match="at least one type"):
        new_job(0, JobSpec("return 1;"))


@pytest.mark.parametrize("backend", [LocalJobs, ZkJobs, GatewayJobs])
def test_every_backend_takes_the_spec_whole(backend):
    assert list(inspect.signature(backend.submit).parameters) == ["self", "spec"]


class _Jobs(BaseHTTPRequestHandler):
    bodies: ClassVar[list[tuple[dict[str, Any], str | None]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.bodies.append((body, self.headers.get("Idempotency-Key")))
        answer = json.dumps({"id": len(self.bodies), "href": f"/jobs/{len(self.bodies)}"}).encode()
        self.send_response(202)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def gateway() -> Iterator[str]:
    _Jobs.bodies = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Jobs)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_through_a_gateway_the_spec_is_the_body_and_the_gateway_sets_trust_and_owner(gateway):
    jobs = GatewayJobs(gateway)
    spec = JobSpec(
        "return 1;",
        types=["partner.a"],
        vars={"q": "x"},
        priority=3,
        max_attempts=2,
        trust="deployer",
        owner="someone-else",
        policy={"inlineTables": True},
        idempotency_key="order-42",
    )
    assert jobs.submit(spec) == 1
    assert jobs.submit(JobSpec("return 2;")) == 2  # no types: the gateway derives them
    (first, key), (second, no_key) = _Jobs.bodies
    assert first == {
        "script": "return 1;",
        "vars": {"q": "x"},
        "priority": 3,
        "not_before": 0.0,
        "max_attempts": 2,
        "max_seconds": None,
        "types": ["partner.a"],
    }
    assert key == "order-42" and no_key is None and "types" not in second
