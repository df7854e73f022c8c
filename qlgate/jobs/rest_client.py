"""``qlgate jobs --gateway URL``: the same operations through a gateway's REST
API (``/jobs``, ``/limits``), for hosts that cannot reach ZooKeeper."""

from __future__ import annotations

import builtins
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from typing import Any, cast
from urllib.parse import quote, urlencode

from ..limits.rate import Rate
from .model import Job, JobError, JobNotFound, JobSpec, QueueFull

SUBMIT_TRIES = 4


class GatewayUnreachable(JobError):
    """No answer from the gateway (refused, reset, timed out): a keyed submission is sent again."""

    status = 503


class GatewayJobs:
    """``api_key``: sent as ``Authorization: Bearer`` to a gateway with ``gateway.auth``."""

    def __init__(self, base: str, *, timeout: float = 30, api_key: str | None = None):
        self.base = base.rstrip("/")
        self.timeout = timeout
        self._headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"

    def close(self) -> None:
        pass

    def _call(
        self,
        method: str,
        path: str,
        body: Any = None,
        timeout: float | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        data = None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={**self._headers, **(headers or {})}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            try:
                message = json.loads(error.read()).get("err", error.reason)
            except ValueError:
                message = error.reason
            if error.code == 404:
                raise JobNotFound(message) from None
            if error.code == 429:
                raise QueueFull(message, retry_after=float(error.headers.get("Retry-After") or 1)) from None
            failure = JobError(message)
            failure.status = error.code
            raise failure from None
        except (urllib.error.URLError, OSError) as error:
            raise GatewayUnreachable(
                f"cannot reach the gateway at {self.base}: {getattr(error, 'reason', error)}"
            ) from None

    def submit(self, spec: JobSpec) -> int:
        """With ``spec.idempotency_key`` (``Idempotency-Key``), a submission whose answer
        was lost is sent again, up to ``SUBMIT_TRIES`` times: the gateway answers the job
        the first one made, so a retry never queues a second. The gateway sets the job's
        trust, owner and policy from the key that submits: the spec's are not sent."""
        body: dict[str, Any] = {
            "script": spec.script,
            "vars": spec.vars or {},
            "priority": spec.priority,
            "not_before": spec.not_before,
            "max_attempts": spec.max_attempts,
            "max_seconds": spec.max_seconds,
        }
        if spec.types:  # none: the gateway derives them from the tables the script calls
            body["types"] = list(spec.types)
        if spec.idempotency_key is None:
            return self._call("POST", "/jobs", body)["id"]
        headers = {"Idempotency-Key": spec.idempotency_key}
        for attempt in range(1, SUBMIT_TRIES + 1):
            try:
                return self._call("POST", "/jobs", body, headers=headers)["id"]
            except GatewayUnreachable:
                if attempt == SUBMIT_TRIES:
                    raise
                time.sleep(min(2.0, 0.2 * 2**attempt))
        raise AssertionError("unreachable")  # pragma: no cover

    def get(self, job_id: int) -> Job:
        return Job.from_dict(self._call("GET", f"/jobs/{int(job_id)}"))

    def load_result(self, job: Job) -> Any:
        return self._call("GET", f"/jobs/{int(job.id)}/result")

    def list(self, state: str | None = None, limit: int = 1000) -> builtins.list[Job]:
        query = urlencode({k: v for k, v in (("state", state), ("limit", limit)) if v is not None})
        return [Job.from_dict({"script": "", **j}) for j in self._call("GET", f"/jobs?{query}")]

    def wait(self, job_ids: Iterable[int], timeout: float | None = None) -> builtins.list[Job]:
        deadline = None if timeout is None else time.monotonic() + timeout
        out = []
        for job_id in job_ids:
            while True:
                left = 30.0 if deadline is None else min(30.0, deadline - time.monotonic())
                asked = time.monotonic()
                job = Job.from_dict(
                    self._call("GET", f"/jobs/{int(job_id)}?wait={max(left, 0):.3f}", timeout=left + 30)
                )
                if job.final:
                    out.append(job)
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeoutError(f"job {job_id} is still {job.state} after {timeout} s")
                # a gateway with all its long polls taken answers at once: ask again a moment later
                time.sleep(max(0.0, min(1.0, asked + left - time.monotonic())))
        return out

    def cancel(self, job_id: int) -> Job:
        return Job.from_dict(self._call("DELETE", f"/jobs/{int(job_id)}"))

    def set_limit(self, job_type: str, limit: int | None) -> None:
        self._call("PUT", f"/limits/{quote(job_type, safe='')}", {"limit": limit})

    def limits(self) -> dict[str, dict[str, Any]]:
        return self._call("GET", "/limits")

    def set_rate(self, job_type: str, rate: Rate | None) -> None:
        # JSON null removes the rate; an empty body would be refused as a mistake
        self._call("PUT", f"/rates/{quote(job_type, safe='')}", b"null" if rate is None else rate.to_dict())

    def rates(self) -> dict[str, Rate]:
        # time zone included; the gateway lists set rates only, so none is null
        return {t: cast(Rate, Rate.from_json(r)) for t, r in self._call("GET", "/rates").items()}
