"""What each ``qlgate jobs`` action does (``commands/jobs.py`` parses the command
line): open the backend it names — a gateway's REST API or ZooKeeper directly —
then submit, list, wait on, cancel, or set limits and rates, and print the
answer as JSON or as lines for a terminal. Imported when an action runs."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..jobs.cluster import cluster_settings, open_archive
from .arguments import UsageError, parse_var
from .output import is_terminal, progress_line, write_value
from .script import warn_unassigned_in

T = TypeVar("T")

if TYPE_CHECKING:
    from ..jobs.backend import JobClient
    from ..jobs.model import Job


def open_backend(args: argparse.Namespace) -> JobClient:
    if args.gateway:
        from ..jobs.rest_client import GatewayJobs

        return GatewayJobs(args.gateway, api_key=args.api_key)
    from pathlib import Path

    from ..extras import require

    require("kazoo", "cluster", "qlgate jobs --zookeeper")
    from kazoo.handlers.threading import KazooTimeoutError

    from ..jobs.model import MAX_RUN_SECONDS, JobError
    from ..jobs.settings import DEFAULT_DATABASE, JobsSettings
    from ..jobs.zk.client import ZkJobs
    from ..jobs.zk.session import zk_client
    from ..workspace import load_config

    client = zk_client(args.zookeeper, timeout=10)
    try:
        client.start(10)
    except KazooTimeoutError:
        raise JobError(f"cannot reach ZooKeeper at {args.zookeeper}") from None
    # the cluster's database and a job's longest deadline (jobs.maxRunSeconds), as this command's config
    # says (submit takes --config), else the flags, the environment and the defaults
    config = load_config(args.config) if getattr(args, "config", None) else None
    max_run = cluster_settings(config)["maxRunSeconds"] if config is not None else MAX_RUN_SECONDS
    target = (
        args.database
        or JobsSettings.of(config).database
        or os.environ.get("QLGATE_JOBS_DATABASE")
        or (DEFAULT_DATABASE if Path(DEFAULT_DATABASE).is_file() else None)
    )
    return ZkJobs(
        client,
        root=args.root,
        id_batch=1,
        archive=open_archive(target, None) if target else None,
        max_run_seconds=max_run,
        owns_client=True,
    )


def act(args: argparse.Namespace, backend: Any) -> int:
    from ..jobs.model import JobError
    from ..limits.rate import Rate

    action = args.action
    if action == "submit":
        job_id = _submit(args, backend)
        _print(args, {"id": job_id}, str(job_id))
    elif action == "status":
        job = backend.get(args.id)
        _print(args, job.to_dict(), _describe(job))
    elif action == "result":
        job = backend.get(args.id)
        if job.state != "done":
            raise JobError(f"job {job.id} is {job.state}" + (f": {job.error}" if job.error else ""))
        # laid out as run lays out its result: no JSON text in between (json.dumps wrote ", ")
        write_value(backend.load_result(job), args.format, sys.stdout)
    elif action == "cancel":
        job = backend.cancel(args.id)
        _print(args, job.to_dict(), f"{job.id} {job.state}{' (cancel requested)' if job.cancel_requested else ''}")
    elif action == "list":
        jobs = backend.list(args.state, limit=args.limit)
        _print(args, [j.to_dict() for j in jobs], "\n".join(_line(j) for j in jobs))
    elif action == "wait":
        jobs = _wait(args.ids, args.timeout, backend)
        _print(args, [j.to_dict() for j in jobs], "\n".join(_line(j) for j in jobs))
        return 0 if all(j.state == "done" for j in jobs) else 1
    elif action == "rates":
        if args.type is not None:
            if args.rate is None:
                raise UsageError("rates TYPE RATE: the rate is missing (20/s, 5000/day or none)")
            backend.set_rate(args.type, None if args.rate.lower() == "none" else _usage(Rate.parse, args.rate))
        rates = {t: r.to_dict() for t, r in backend.rates().items()}
        _print(args, rates, "\n".join(f"{t}: {r['calls']} calls per {r['per']}" for t, r in rates.items()))
    elif action == "limits":
        if args.type is not None:
            if args.limit is None:
                raise UsageError("limits TYPE N: the number is missing")
            limit = None if args.limit.lower() == "none" else _usage(_whole, args.limit)
            backend.set_limit(args.type, limit)
        limits = backend.limits()
        _print(
            args,
            limits,
            "\n".join(
                f"{t}: limit {v['limit'] if v['limit'] is not None else '-'}, "
                f"running {v['running']}, waiting {v['waiting']}"
                for t, v in limits.items()
            ),
        )
    return 0


def _wait(ids: list[int], timeout: float | None, backend: Any) -> list[Job]:
    """``backend.wait``, with a progress line on stderr when it is a terminal: the jobs' states
    are read again after each short wait (a second at most), the line cleared at the end."""
    if not is_terminal(sys.stderr):
        return cast("list[Job]", backend.wait(ids, timeout=timeout))
    start = time.monotonic()
    deadline = None if timeout is None else start + timeout
    try:
        while True:
            jobs = [backend.get(job_id) for job_id in ids]
            sys.stderr.write("\r\x1b[K" + progress_line([j.state for j in jobs], time.monotonic() - start))
            sys.stderr.flush()
            if all(j.final for j in jobs):
                return jobs
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                unfinished = next(j for j in jobs if not j.final)
                raise TimeoutError(f"job {unfinished.id} is still {unfinished.state} after {timeout} s")
            try:
                return cast("list[Job]", backend.wait(ids, timeout=min(1.0, left) if left is not None else 1.0))
            except TimeoutError:
                continue
    finally:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


def _usage(check: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``check(*args)``, its JobError a usage error: what the command line gave (a rate, a
    limit, --priority, --max-attempts, an empty script) is refused as --help says, with
    exit status 2, not 1, which is for a job or a cluster that fails."""
    from ..jobs.model import JobError

    try:
        return check(*args, **kwargs)
    except JobError as error:
        raise UsageError(error.message) from None


def _whole(text: str) -> int:
    """A limit as typed: digits only, checked like any other (a non-number fails the check as text)."""
    from ..jobs.model import check_limit

    return check_limit(int(text) if text.strip().isascii() and text.strip().isdigit() and len(text) <= 20 else text)


def _submit(args: argparse.Namespace, backend: Any) -> int:
    from ..jobs.model import JobError, JobSpec, check_priority, new_job, parse_time

    try:
        if args.script == "-":
            script = sys.stdin.read()
        else:
            with open(args.script, encoding="utf-8") as f:
                script = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read script {args.script}: {getattr(e, 'strerror', None) or e}") from None
    variables = dict(parse_var(v) for v in args.var)
    warn_unassigned_in(script, variables, "<stdin>" if args.script == "-" else args.script)
    types = args.types
    if not types and args.gateway:
        types = None  # the gateway derives them from its own tables, and adds any named
    elif not args.gateway:
        from ..jobs.types import NoTable, job_types
        from ..workspace import Workspace

        try:  # the partner APIs the script calls always count; types named add to them
            derived = job_types(Workspace.load(tables=args.tables, config=args.config).engine, script)
        except NoTable:
            if not types:
                raise
            derived = []
        types = sorted({*derived, *(types or ())})
    try:
        not_before = parse_time(args.not_before)
    except JobError as error:
        raise UsageError(f"--not-before {error}") from None
    # through a gateway, one key for every try of this command: a retry after a lost answer finds
    # the first job (straight on ZooKeeper the job's id, chosen before the commit, does that)
    key = args.idempotency_key or (f"cli-{uuid.uuid4()}" if args.gateway else None)
    spec = _usage(
        JobSpec,
        script,
        types=tuple(types or ()),
        vars=variables,
        priority=args.priority,
        not_before=not_before,
        max_attempts=args.max_attempts,
        max_seconds=args.max_seconds,
        idempotency_key=key,
    )
    # checked here as the backend will check it, so that a bad value is usage (exit 2): the types
    # may be the gateway's to add, and the backend's own jobs.maxRunSeconds bound is its to apply
    _usage(new_job, 0, dataclasses.replace(spec, types=spec.types or ("any",), max_seconds=None))
    if spec.max_seconds is not None and not (math.isfinite(spec.max_seconds) and spec.max_seconds > 0):
        raise UsageError(f"--max-seconds must be a number of seconds above 0, not {spec.max_seconds!r}")
    _usage(check_priority, spec.priority)
    return submit_with_backoff(
        lambda: backend.submit(spec),
        on_wait=lambda delay: print(f"queue full, retrying in {delay:.1f} s", file=sys.stderr),
    )


def submit_with_backoff(
    submit: Callable[[], int],
    *,
    tries: int = 9,
    on_wait: Callable[[float], Any] | None = None,
    sleep: Callable[[float], Any] = time.sleep,
) -> int:
    """Backpressure, the client's half: a full queue (429) is retried after its
    Retry-After, doubled each time with jitter, so a flood of clients spreads out."""
    from ..jobs.model import QueueFull

    for attempt in range(1, tries + 1):
        try:
            return submit()
        except QueueFull as full:
            if attempt == tries:
                raise
            delay = max(full.retry_after, 0.05) * random.uniform(1, 2) * min(2 ** (attempt - 1), 16)
            if on_wait is not None:
                on_wait(delay)
            sleep(delay)
    raise AssertionError("unreachable")  # pragma: no cover


def _print(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False, default=str) if args.json else text)


def _stamp(t: float | None) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + "Z" if t else "-"


def _line(job: Job) -> str:
    return f"{job.id}  {job.state:9}  run {job.run}  priority {job.priority}  {','.join(job.types)}"


def _describe(job: Job) -> str:
    from ..jobs.model import FINAL

    lines = [_line(job), f"submitted {_stamp(job.submitted)}  started {_stamp(job.started)}  ended {_stamp(job.ended)}"]
    if job.not_before:
        lines.append(f"not before {_stamp(job.not_before)}")
    for attempt in job.attempts:
        lines.append(
            f"  run {attempt.run} on {attempt.worker}: {_stamp(attempt.started)} → {_stamp(attempt.ended)}"
            + (f"  {attempt.error}" if attempt.error else "")
        )
    if job.error:
        lines.append(f"error: {job.error}")
    if job.state in FINAL and job.state == "done":
        lines.append("result: qlgate jobs result " + str(job.id))
    return "\n".join(lines)
