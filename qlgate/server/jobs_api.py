"""The job backend over HTTP: ``/jobs``, ``/limits`` and ``/rates`` on the
gateway, the same operations as ``qlgate jobs``. Backend calls are blocking
(ZooKeeper, SQLite), so they run in threads, never on the event loop.

A script submitted here is a caller's: it is checked under the caller trust
when it arrives (a 400 names what it may not do) and recorded with
``trust="caller"``, so every worker runs it under the ad-hoc policy; the job
belongs to the API key that submitted it, and other keys without ``admin``
neither see nor cancel it. Bodies are JSON only (``415`` otherwise): a web page
cannot post JSON across sites without a preflight the gateway never grants."""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..errors import QlError
from ..http.codecs import load_json
from ..jobs.archive_errors import ArchiveError
from ..jobs.backend import JobBackend
from ..jobs.model import MAX_JOB_ID, Job, JobError, JobSpec, QueueFull, parse_time
from ..jobs.types import NoTable, types_of
from ..limits.rate import Rate
from .auth import Principal
from .members import refuse_unknown_members
from .ndjson import ndjson_response, stored_rows, value_rows, wants_ndjson
from .request import Request
from .response import Response
from .response import json_response as _json
from .router import Router
from .scripts import body_text, compile_caller_script, error_response

log = logging.getLogger("qlgate.jobs.api")
MAX_WAIT_S = 60.0
MAX_LIST = 1000
MAX_LONG_POLLS = 16  # long polls blocked in the backend's wait at once


# what a submission's JSON body may hold (``submit`` reads each)
SUBMIT_MEMBERS = ("script", "vars", "types", "priority", "not_before", "max_attempts", "max_seconds", "idempotency_key")


def _summary(job: Job) -> dict[str, Any]:
    data = job.to_dict()
    data.pop("result", None)
    data.pop("script", None)
    return data


async def _call(request: Request, method: Callable, *args: Any, **kw: Any) -> Any:
    return await _answer_errors(asyncio.to_thread(method, *args, **kw))


async def _answer_errors(call: Awaitable) -> Any:
    try:
        return await call
    except QueueFull as full:
        raise _Answer(
            _json({"err": str(full)}, status=429, headers={"Retry-After": str(max(1, round(full.retry_after)))})
        ) from None
    except JobError as error:
        raise _Answer(_json({"err": str(error), "type": type(error).__name__}, status=error.status)) from None
    except ArchiveError as error:
        # the database's address is the deployment's business, not a caller's: logged, not answered
        log.warning("jobs database: %s", error)
        raise _Answer(
            _json(
                {"err": "the jobs database is unavailable; try again later", "type": "ArchiveUnavailable"},
                status=503,
                headers={"Retry-After": "5"},
            )
        ) from None


class _Answer(Exception):
    def __init__(self, response: Response):
        self.response = response


def _handler(fn):
    async def wrapped(request: Request) -> Response:
        try:
            return await fn(request)
        except _Answer as answer:
            return answer.response

    return wrapped


class LongPolls:
    """Where long polls wait: ``backend.wait`` blocks, so each takes a thread, from a pool of
    their own — never the default pool every other backend call runs in, which a few dozen
    waiting requests would otherwise fill, freezing the API — and at most ``size`` at once: a
    request beyond that is answered at once with the job's state (clients ask again). A wait
    whose request went away keeps its thread, and counts, until the wait ends."""

    def __init__(self, size: int = MAX_LONG_POLLS):
        self.size = size
        self.busy = 0
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(size, thread_name_prefix="jobs-long-poll")

    def start(self, method: Callable, *args: Any, **kw: Any) -> asyncio.Future | None:
        """The wait's future, or None when ``size`` waits are under way."""
        with self._lock:
            if self.busy >= self.size:
                return None
            self.busy += 1
        future = self._pool.submit(method, *args, **kw)
        future.add_done_callback(self._done)
        return asyncio.wrap_future(future)

    def _done(self, _future: Any) -> None:
        with self._lock:
            self.busy -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _bad(message: str) -> _Answer:
    return _Answer(_json({"err": message}, status=400))


def _query_number(
    request: Request, name: str, low: float, high: float, *, whole: bool = False, default: float | None = None
) -> Any:
    """A numeric query parameter, finite and from ``low`` to ``high`` (NaN compares false, so it fails too)."""
    text = request.query.get(name, "")
    if not text:
        return default
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise _bad(f"{name} must be a {'whole ' if whole else ''}number from {low:g} to {high:g}, not {text!r}")
    return value


def _job_id(request: Request) -> int:
    """Job ids are integers 1..2**63-1: a non-number is a bad request, any other number no job."""
    text = request.params["id"]
    if not re.fullmatch(r"-?[0-9]+", text):
        raise _bad(f"'{text}' is not a job id")
    if len(text) > 20 or not 1 <= int(text) <= MAX_JOB_ID:
        raise _Answer(_json({"err": f"no job {text}"}, status=404))
    return int(text)


async def _body(request: Request) -> Any:
    """The JSON body; None when there is none. Any other media type is a 415."""
    raw = await request.read()
    if not raw.strip():
        return None
    if (request.content_type or "").lower() != "application/json":
        raise _Answer(_json({"err": f"the body must be application/json, not {request.content_type[:60]}"}, status=415))
    try:
        return load_json(body_text(raw, request))
    except QlError as error:  # a charset we do not decode (415), bytes not in it (400)
        raise _Answer(_json({"err": error.message, "type": type(error).__name__}, status=error.status)) from None
    except ValueError as e:
        raise _Answer(_json({"err": f"the body is not JSON: {e}"}, status=400)) from None


def _principal(request: Request) -> Principal:
    """Who is calling, as the middleware found; never a default (fail closed)."""
    principal = request.principal
    if principal is None:
        raise _Answer(_json({"err": "this endpoint needs an API key"}, status=401))
    return principal


def _mine(request: Request, job: Job) -> Job:
    """A job the caller may see: its own, or any with ``admin`` (everyone on an open
    gateway has it); others are not there."""
    principal = _principal(request)
    if principal.admin or (principal.name is not None and job.owner == principal.name):
        return job
    raise _Answer(_json({"err": f"no job {job.id}"}, status=404))


async def _own_job(request: Request) -> Job:
    return _mine(request, await _call(request, _backend(request).get, _job_id(request)))


@_handler
async def submit(request: Request) -> Response:
    backend = _backend(request)
    body = await _body(request)
    if not isinstance(body, dict) or not isinstance(body.get("script"), str):
        return _json({"err": 'the body must be a JSON object with a "script"'}, status=400)
    try:  # a mistyped member ("varz") would otherwise run the job without it
        refuse_unknown_members(body, SUBMIT_MEMBERS, "POST /jobs")
    except QlError as error:
        return error_response(error, request.gateway.workspace)
    if not request.gateway.policy.adhoc_enabled:
        return _json({"err": "callers' scripts are disabled on this gateway (gateway.adhoc.enabled)"}, status=403)
    workspace = request.gateway.workspace
    try:  # refused now, with its line, rather than on a worker later
        compiled = await compile_caller_script(
            workspace.engine, request.gateway.compiler, body["script"], workspace.trust("caller")
        )
    except QlError as error:
        return error_response(error, workspace)
    given = body.get("types")
    if given is not None and (not isinstance(given, list) or not all(isinstance(t, str) for t in given)):
        return _json({"err": '"types" must be a list of names'}, status=400)
    try:
        # the partner APIs the script calls always count; types named by the caller add to
        # them and never replace them (else a limit of 0 could be walked around)
        derived = types_of(compiled, workspace.engine.tables, workspace.engine.api_types)
    except NoTable as error:
        if not given:
            return _json({"err": str(error), "type": "NoTable"}, status=400)
        derived = []
    except JobError as error:
        return _json({"err": str(error), "type": type(error).__name__}, status=400)
    types = sorted({*derived, *(given or ())})
    not_before = body.get("not_before", 0)
    try:
        not_before = parse_time(str(not_before)) if not_before else 0.0
    except JobError as error:
        return _json({"err": f"not_before {error}"}, status=400)
    # a client's retry of the same submission (its answer lost on the way) names the same key
    # and gets the first one's job, never a second
    key = request.headers.get("Idempotency-Key", body.get("idempotency_key"))
    spec = JobSpec(
        body["script"],
        types=tuple(types),
        vars=body.get("vars") or {},
        priority=body.get("priority", 0),
        not_before=not_before,
        max_attempts=body.get("max_attempts", 3),
        max_seconds=body.get("max_seconds"),
        trust="caller",
        owner=_principal(request).name,
        policy=workspace.trust("caller").to_record(),
        idempotency_key=key,
    )
    job_id = await _call(request, backend.submit, spec)
    return _json({"id": job_id, "href": f"/jobs/{job_id}"}, status=202, headers={"Location": f"/jobs/{job_id}"})


@_handler
async def list_jobs(request: Request) -> Response:
    limit = _query_number(request, "limit", 1, MAX_LIST, whole=True, default=100)
    principal = _principal(request)
    owner = None if principal.admin else principal.name
    jobs = await _call(request, _backend(request).list, request.query.get("state"), limit=limit, owner=owner)
    return _json([_summary(j) for j in jobs])


@_handler
async def get_job(request: Request) -> Response:
    """``?wait=S`` answers once the job has ended, or after S seconds (a long poll); with
    ``MAX_LONG_POLLS`` under way already, at once."""
    backend = _backend(request)
    job_id = (await _own_job(request)).id  # another key's job is not there, even to wait on
    seconds = _query_number(request, "wait", 0, MAX_WAIT_S)
    long_polls = request.gateway.long_polls
    waiting = long_polls.start(backend.wait, [job_id], timeout=seconds) if seconds and long_polls else None
    if waiting is not None:
        try:
            (job,) = await _answer_errors(waiting)
            return _json(job.to_dict())
        except TimeoutError:
            pass
    job = await _call(request, backend.get, job_id)
    return _json(job.to_dict())


@_handler
async def job_result(request: Request) -> Response:
    job = await _own_job(request)
    if job.state != "done":
        return _json(
            {"err": f"job {job.id} is {job.state}" + (f": {job.error}" if job.error else ""), "state": job.state},
            status=409,
        )
    # a result in the cluster's database is sent as it is stored, never decoded and encoded again
    stored = await _call(request, _backend(request).stored_result, job)
    if wants_ndjson(request):  # a large result a row at a time (``ndjson.py``)
        if stored is not None:
            return ndjson_response(stored_rows(stored), encoded=True)
        return ndjson_response(value_rows(job.result))
    if stored is not None:
        return Response(stored, 200, "application/json; charset=utf-8")
    return _json(job.result)


@_handler
async def cancel_job(request: Request) -> Response:
    job = await _call(request, _backend(request).cancel, (await _own_job(request)).id)
    return _json(job.to_dict())


@_handler
async def get_limits(request: Request) -> Response:
    """Every API type's live usage, jobs and calls together: its limit, the jobs of the
    type running and waiting, the calls in flight (every process sharing the limits
    store, and this one), its rate and what is left of today's quota."""
    jobs = await _call(request, _backend(request).limits)
    limits = request.gateway.workspace.engine.limits
    calls = await asyncio.to_thread(limits.usage) if limits is not None else {}
    for api_type, usage in calls.items():
        jobs.setdefault(api_type, {"limit": None, "running": 0, "waiting": 0})["calls"] = usage
    return _json(dict(sorted(jobs.items())))


@_handler
async def put_limit(request: Request) -> Response:
    """Body: ``{"limit": N}``, or ``{"limit": null}`` to remove it — nothing else, so a
    typo or an empty body cannot lift a limit."""
    body = await _body(request)
    if not isinstance(body, dict) or set(body) != {"limit"}:
        return _json({"err": 'the body must be {"limit": N} (a whole number, or null to remove the limit)'}, status=400)
    limit = body["limit"]
    await _call(request, _backend(request).set_limit, request.params["type"], limit)
    return _json(await _call(request, _backend(request).limits))


@_handler
async def get_rates(request: Request) -> Response:
    rates = await _call(request, _backend(request).rates)
    return _json({t: r.to_dict() for t, r in rates.items()})


@_handler
async def put_rate(request: Request) -> Response:
    """Body: ``{"calls": 20, "per": "second"}``, ``"20/s"``, or ``null`` to remove the rate;
    an empty body is a mistake, not a removal."""
    if not (await request.read()).strip():
        return _json(
            {"err": 'the body must be a rate ("20/s", {"calls": 20, "per": "second"}) or null to remove it'}, status=400
        )
    body = await _body(request)
    try:
        rate = Rate.from_json(body)
    except JobError as error:
        return _json({"err": str(error)}, status=400)
    await _call(request, _backend(request).set_rate, request.params["type"], rate)
    return await get_rates(request)


@_handler
async def backend_state(request: Request) -> Response:
    """What the console's jobs view shows: the master, workers, limits and recent jobs."""
    backend = _backend(request)
    workers, master, limits, recent = await asyncio.gather(
        _call(request, backend.workers),
        _call(request, backend.master),
        _call(request, backend.limits),
        _call(request, backend.list, None, limit=50),
    )
    return _json(
        {
            "backend": type(backend).__name__,
            "master": master,
            "workers": workers,
            "limits": limits,
            "recent": [_summary(j) for j in recent],
        }
    )


def _backend(request: Request) -> JobBackend:
    backend = request.gateway.jobs
    assert backend is not None  # the endpoints are served only with a backend (add_jobs_api)
    return backend


def add_jobs_api(router: Router) -> None:
    """``/jobs``, ``/limits`` and ``/rates`` over the gateway's job backend; submitted
    scripts are checked against its workspace (its tables and caller trust)."""
    router.add("POST", "/jobs", submit)
    router.add("GET", "/jobs", list_jobs)
    router.add("GET", "/jobs/backend", backend_state)
    router.add("GET", "/jobs/{id}", get_job)
    router.add("GET", "/jobs/{id}/result", job_result)
    router.add("DELETE", "/jobs/{id}", cancel_job)
    router.add("POST", "/jobs/{id}/cancel", cancel_job)
    router.add("GET", "/limits", get_limits)
    router.add("PUT", "/limits/{type}", put_limit)
    router.add("GET", "/rates", get_rates)
    router.add("PUT", "/rates/{type}", put_rate)
