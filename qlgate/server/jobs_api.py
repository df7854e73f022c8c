"""The job backend over HTTP: ``/jobs`` and ``/limits`` on the gateway, the
same operations as ``qlgate jobs``. Backend calls are blocking (ZooKeeper,
SQLite), so they run in threads, never on the event loop."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from aiohttp import web

from ..jobs.model import Job, JobError, QueueFull, parse_time
from ..jobs.rates import Rate
from .responses import json_response as _json

JOBS = web.AppKey("jobs", object)
JOBS_ENGINE = web.AppKey("jobs_engine", object)     # derives a job's types from its script
MAX_WAIT_S = 60.0


def _summary(job: Job) -> dict[str, Any]:
    data = job.to_dict()
    data.pop("result", None)
    data.pop("script", None)
    return data


async def _call(request: web.Request, method: Callable, *args: Any, **kw: Any) -> Any:
    try:
        return await asyncio.to_thread(method, *args, **kw)
    except QueueFull as full:
        raise _Answer(_json({"err": str(full)}, status=429,
                            headers={"Retry-After": str(max(1, round(full.retry_after)))})) from None
    except JobError as error:
        raise _Answer(_json({"err": str(error)}, status=error.status)) from None


class _Answer(Exception):
    def __init__(self, response: web.Response):
        self.response = response


def _handler(fn):
    async def wrapped(request: web.Request) -> web.Response:
        try:
            return await fn(request)
        except _Answer as answer:
            return answer.response
    return wrapped


def _job_id(request: web.Request) -> int:
    try:
        return int(request.match_info["id"])
    except ValueError:
        raise _Answer(_json({"err": f"'{request.match_info['id']}' is not a job id"}, status=400)) from None


async def _body(request: web.Request) -> Any:
    try:
        return await request.json()
    except (ValueError, UnicodeDecodeError) as e:
        raise _Answer(_json({"err": f"the body is not JSON: {e}"}, status=400)) from None


@_handler
async def submit(request: web.Request) -> web.Response:
    backend = request.app[JOBS]
    body = await _body(request)
    if not isinstance(body, dict) or not isinstance(body.get("script"), str):
        return _json({"err": 'the body must be a JSON object with a "script"'}, status=400)
    types = body.get("types")
    if types is None:
        from ..jobs.types import job_types
        engine = request.app[JOBS_ENGINE]
        try:
            types = job_types(engine, body["script"])
        except JobError as error:
            return _json({"err": str(error)}, status=400)
    if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
        return _json({"err": '"types" must be a list of names'}, status=400)
    not_before = body.get("not_before", 0)
    try:
        not_before = parse_time(str(not_before)) if not_before else 0.0
    except JobError as error:
        return _json({"err": f"not_before {error}"}, status=400)
    job_id = await _call(request, backend.submit, body["script"], types=types, vars=body.get("vars") or {},
                         priority=body.get("priority", 0), not_before=not_before,
                         max_attempts=body.get("max_attempts", 3))
    return _json({"id": job_id, "href": f"/jobs/{job_id}"}, status=202, headers={"Location": f"/jobs/{job_id}"})


@_handler
async def list_jobs(request: web.Request) -> web.Response:
    try:
        limit = int(request.query.get("limit", "100"))
    except ValueError:
        return _json({"err": "limit must be a number"}, status=400)
    jobs = await _call(request, request.app[JOBS].list, request.query.get("state"), limit=limit)
    return _json([_summary(j) for j in jobs])


@_handler
async def get_job(request: web.Request) -> web.Response:
    """``?wait=S`` answers once the job has ended, or after S seconds (a long poll)."""
    backend, job_id = request.app[JOBS], _job_id(request)
    wait = request.query.get("wait")
    if wait:
        try:
            seconds = min(float(wait), MAX_WAIT_S)
        except ValueError:
            return _json({"err": "wait must be a number of seconds"}, status=400)
        try:
            (job,) = await _call(request, backend.wait, [job_id], timeout=seconds)
            return _json(job.to_dict())
        except TimeoutError:
            pass
    job = await _call(request, backend.get, job_id)
    return _json(job.to_dict())


@_handler
async def job_result(request: web.Request) -> web.Response:
    job = await _call(request, request.app[JOBS].get, _job_id(request))
    if job.state != "done":
        return _json({"err": f"job {job.id} is {job.state}" + (f": {job.error}" if job.error else ""),
                      "state": job.state}, status=409)
    return _json(job.result)


@_handler
async def cancel_job(request: web.Request) -> web.Response:
    job = await _call(request, request.app[JOBS].cancel, _job_id(request))
    return _json(job.to_dict())


@_handler
async def get_limits(request: web.Request) -> web.Response:
    return _json(await _call(request, request.app[JOBS].limits))


@_handler
async def put_limit(request: web.Request) -> web.Response:
    body = await _body(request)
    limit = body.get("limit") if isinstance(body, dict) else body
    await _call(request, request.app[JOBS].set_limit, request.match_info["type"], limit)
    return _json(await _call(request, request.app[JOBS].limits))


@_handler
async def get_rates(request: web.Request) -> web.Response:
    rates = await _call(request, request.app[JOBS].rates)
    return _json({t: r.to_dict() for t, r in rates.items()})


@_handler
async def put_rate(request: web.Request) -> web.Response:
    """Body: ``{"calls": 20, "per": "second"}``, ``"20/s"``, or ``null`` (or none) to remove the rate."""
    body = await _body(request) if (await request.read()).strip() else None
    try:
        rate = Rate.from_json(body)
    except JobError as error:
        return _json({"err": str(error)}, status=400)
    await _call(request, request.app[JOBS].set_rate, request.match_info["type"], rate)
    return await get_rates(request)


@_handler
async def backend_state(request: web.Request) -> web.Response:
    """What the console's jobs view shows: the master, workers, limits and recent jobs."""
    backend = request.app[JOBS]
    workers, master, limits, recent = await asyncio.gather(
        _call(request, backend.workers), _call(request, backend.master), _call(request, backend.limits),
        _call(request, backend.list, None, limit=50))
    return _json({"backend": type(backend).__name__, "master": master, "workers": workers, "limits": limits,
                  "recent": [_summary(j) for j in recent]})


def add_jobs_api(app: web.Application, backend: Any, engine: Any) -> None:
    app[JOBS] = backend
    app[JOBS_ENGINE] = engine
    app.router.add_post("/jobs", submit)
    app.router.add_get("/jobs", list_jobs)
    app.router.add_get("/jobs/backend", backend_state)
    app.router.add_get("/jobs/{id}", get_job)
    app.router.add_get("/jobs/{id}/result", job_result)
    app.router.add_delete("/jobs/{id}", cancel_job)
    app.router.add_post("/jobs/{id}/cancel", cancel_job)
    app.router.add_get("/limits", get_limits)
    app.router.add_put("/limits/{type}", put_limit)
    app.router.add_get("/rates", get_rates)
    app.router.add_put("/rates/{type}", put_rate)

