"""``qlgate jobs …``: submit, watch, cancel and limit jobs — on ZooKeeper
directly (``--zookeeper``) or through a gateway's REST API (``--gateway``). The
processes a cluster runs (``qlgate worker``, ``qlgate limiter``) are in
``daemons.py``; the cluster's settings in ``cluster.py``.

Which cluster, when no flag says: ``$QLGATE_GATEWAY``, else a gateway on the
local default address (``qlgate serve`` with no options) when one answers its
``/health`` there — a loopback probe that fails at once when nothing listens —
so that trying jobs against a local gateway needs no flag at all. Otherwise the
command line is incomplete: a usage error (exit 2).

``jobs wait`` on a terminal draws a progress line on stderr (queued, running,
ended) while it waits; piped, it prints the listing only. Its ``--timeout``
ends it with exit status 3, a job that did not end well with 1.

The job model and the backends are imported when an action runs, not at the
top: this module is imported whenever the command line is parsed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from ..commands.arguments import UsageError, add_workspace_options, parse_var
from ..commands.output import add_format_option, is_terminal, progress_line, write_json_text

# the cluster's settings, importable from here as before they had a module of their own
from .cluster import DEFAULT_DATABASE, JobsCommandError, cluster_database, cluster_settings, open_archive

if TYPE_CHECKING:
    from .backend import JobClient
    from .model import Job

__all__ = ["add_arguments", "cluster_database", "cluster_settings", "open_archive", "run_jobs", "submit_with_backoff"]

DESCRIPTION = """Submit scripts as jobs and follow them: status, result, cancel,
list and wait; show or set the running limit and the call rate of each
partner-API type. Every action talks to the cluster straight on ZooKeeper
(--zookeeper) or through a gateway's REST API (--gateway, with --api-key). With
neither, the gateway of $QLGATE_GATEWAY is used, else a gateway answering on
http://127.0.0.1:3000 (a local 'qlgate serve')."""

EXAMPLES = """examples:
  qlgate serve &                                     # a local gateway: no --gateway needed below
  qlgate jobs submit job.ql --var sku=MY-1           # prints the job's id
  qlgate jobs wait 1 2 3 --timeout 60                # exit 0 all done, 1 one failed, 3 timed out
  qlgate jobs result 1 --format table
  QLGATE_GATEWAY=https://gw.example.com QLGATE_API_KEY=… qlgate jobs list --state running
  qlgate jobs limits partner.a 4 --zookeeper zk1:2181"""

DEFAULT_GATEWAY = "http://127.0.0.1:3000"

STATES = ("queued", "running", "done", "failed", "cancelled")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True)

    def action(name: str, help: str, description: str, *examples: str) -> argparse.ArgumentParser:
        epilog = "examples:\n" + "\n".join(f"  qlgate jobs {name} {example}".rstrip() for example in examples)
        return actions.add_parser(name, help=help, description=description, epilog=epilog)

    submit = action(
        "submit",
        "queue a script as a job; prints its id",
        "Queue SCRIPT_FILE as a job and print its id. Its types (which limits and call rates it counts "
        "against) come from the tables it uses unless --type names them; a full queue is retried after "
        "the time the cluster asks for, with a growing, jittered back-off.",
        "job.ql --var sku=MY-1 --var price=9.99",
        "job.ql --type ebay.trading --priority 5 --not-before +10m",
        "- < job.ql                     # the script from stdin",
    )
    submit.add_argument("script", metavar="SCRIPT_FILE", help="the script file, or - to read stdin")
    submit.add_argument("--var", action="append", default=[], metavar="NAME=VALUE")
    submit.add_argument(
        "--type",
        action="append",
        dest="types",
        metavar="T",
        help="partner-API type (default: derived from the tables the script uses)",
    )
    submit.add_argument("--priority", type=int, default=0)
    submit.add_argument("--not-before", metavar="TIME", help="ISO time, epoch seconds or +30s / +5m / +2h")
    submit.add_argument("--max-attempts", type=int, default=3, help="1 to 20")
    submit.add_argument(
        "--max-seconds",
        type=float,
        metavar="S",
        help="the run's deadline (default and most: config jobs.maxRunSeconds, 3600)",
    )
    submit.add_argument(
        "--idempotency-key",
        metavar="KEY",
        help="a second submit with the same key answers the first one's job (default: a "
        "fresh key, so this command's own retries never queue a job twice)",
    )
    add_workspace_options(submit, routes=False)
    _add_target(submit)
    for name, text, description in (
        ("status", "a job's state, attempts and timings", "Show a job's state, its runs on which workers, and when."),
        ("cancel", "cancel a job", "Cancel a job: a queued one at once, a running one when its worker sees it."),
        (
            "result",
            "a finished job's result",
            "Print a done job's result (as 'qlgate run' prints one: --format); a job not done is an error.",
        ),
    ):
        by_id = action(name, text, description, "42", "42 --gateway http://gw:3000 --json")
        by_id.add_argument("id", type=int)
        if name == "result":
            add_format_option(by_id)
        _add_target(by_id)
    listing = action(
        "list",
        "jobs, newest first",
        "List jobs, newest first, optionally in one state only.",
        "",
        "--state failed --limit 10 --json",
    )
    listing.add_argument("--state", choices=STATES)
    listing.add_argument("--limit", type=int, default=100)
    _add_target(listing)
    wait = action(
        "wait",
        "block until the jobs end",
        "Block until every job named has ended, then list them; exit status 1 unless all are done, 3 when "
        "--timeout passes first. On a terminal a progress line on stderr counts the jobs queued, running "
        "and ended meanwhile.",
        "1 2 3",
        "1 2 3 --timeout 60 --json",
    )
    wait.add_argument("ids", type=int, nargs="+", metavar="ID")
    wait.add_argument("--timeout", type=float, metavar="S", help="give up after S seconds (exit status 3)")
    _add_target(wait)
    limits = action(
        "limits",
        "show limits, or set one: limits TYPE N ('none' removes it)",
        "Show each type's running limit with its running and waiting jobs, or set one: limits TYPE N "
        "('none' removes it).",
        "",
        "partner.a 4",
        "partner.a none",
    )
    limits.add_argument("type", nargs="?")
    limits.add_argument("limit", nargs="?")
    _add_target(limits)
    rates = action(
        "rates",
        "show call-rate limits, or set one: rates TYPE 20/s|5000/day|none",
        "Show each type's call-rate limit, or set one: rates TYPE 20/s|5000/day|none. Every upstream call "
        "of every run of that type counts against it, cluster-wide.",
        "",
        "ebay.trading 5000/day",
        "partner.a 20/s",
    )
    rates.add_argument("type", nargs="?")
    rates.add_argument("rate", nargs="?")
    _add_target(rates)


def _add_target(parser: argparse.ArgumentParser) -> None:
    """Which cluster an action talks to, and how it answers."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--zookeeper", metavar="HOST:PORT[,...]", help="talk to the cluster directly")
    where.add_argument(
        "--gateway",
        metavar="URL",
        help=f"talk through a gateway's REST API (default: $QLGATE_GATEWAY, else {DEFAULT_GATEWAY} when a gateway "
        "answers there)",
    )
    parser.add_argument(
        "--api-key",
        metavar="KEY",
        help="with --gateway: the API key to send (default: $QLGATE_API_KEY, sent only to a gateway named by "
        "--gateway or $QLGATE_GATEWAY)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--database",
        "--archive",
        dest="database",
        metavar="URL|FILE",
        help="with --zookeeper: the cluster's database of finished jobs and results "
        "(default: $QLGATE_JOBS_DATABASE, else .qlgate/jobs.sqlite if it exists)",
    )
    parser.add_argument("--root", default="/qlgate", help=argparse.SUPPRESS)


def run_jobs(args: argparse.Namespace) -> int:
    from .model import JobError

    _choose_target(args)
    try:
        backend = _backend(args)
    except JobError as error:
        raise JobsCommandError(str(error), status=error.status) from None
    try:
        return _act(args, backend)
    except JobError as error:
        raise JobsCommandError(str(error), status=error.status) from None
    except TimeoutError as error:
        raise JobsCommandError(str(error), status=504) from None
    finally:
        backend.close()


def _choose_target(args: argparse.Namespace) -> None:
    """``--gateway`` when neither flag is given: ``$QLGATE_GATEWAY``, else the local default if a gateway answers."""
    named = args.zookeeper or args.gateway or os.environ.get("QLGATE_GATEWAY")
    if args.api_key is None and named:
        # the environment's key goes only where the user pointed: whatever happens to answer on
        # the default port (any local user can bind it) gets no key it was not given for
        args.api_key = os.environ.get("QLGATE_API_KEY")
    if args.zookeeper or args.gateway:
        return
    args.gateway = os.environ.get("QLGATE_GATEWAY") or (DEFAULT_GATEWAY if gateway_answers(DEFAULT_GATEWAY) else None)
    if not args.gateway:
        raise UsageError(
            "which cluster? give --gateway URL or --zookeeper HOST:PORT, or set QLGATE_GATEWAY "
            f"(no gateway answers on {DEFAULT_GATEWAY})"
        )


def gateway_answers(base: str, timeout: float = 0.5) -> bool:
    """A qlgate gateway answers ``base``: its public ``/health`` says ``ok``. Cheap when nothing
    listens there (a refused loopback connection fails at once)."""
    import urllib.error
    import urllib.request

    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through $HTTP_PROXY
    try:
        with direct.open(base.rstrip("/") + "/health", timeout=timeout) as response:
            answer = json.loads(response.read(4096))
    except (OSError, ValueError):  # refused, timed out, an HTTP error, not JSON
        return False
    return isinstance(answer, dict) and answer.get("status") == "ok"


def _backend(args: argparse.Namespace) -> JobClient:
    if args.gateway:
        from .rest_client import GatewayJobs

        return GatewayJobs(args.gateway, api_key=args.api_key)
    from pathlib import Path

    from ..extras import require

    require("kazoo", "cluster", "qlgate jobs --zookeeper")
    from kazoo.handlers.threading import KazooTimeoutError

    from ..workspace import load_config
    from .model import MAX_RUN_SECONDS, JobError
    from .zk.client import ZkJobs
    from .zk.session import zk_client

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
        or ((config.data.get("jobs") or {}).get("database") if config is not None else None)
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


def _act(args: argparse.Namespace, backend: Any) -> int:
    from .model import JobError
    from .rates import Rate

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
        write_json_text(json.dumps(backend.load_result(job), ensure_ascii=False), args.format, sys.stdout)
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
            backend.set_rate(args.type, None if args.rate.lower() == "none" else Rate.parse(args.rate))
        rates = {t: r.to_dict() for t, r in backend.rates().items()}
        _print(args, rates, "\n".join(f"{t}: {r['calls']} calls per {r['per']}" for t, r in rates.items()))
    elif action == "limits":
        if args.type is not None:
            if args.limit is None:
                raise UsageError("limits TYPE N: the number is missing")
            limit = None if args.limit.lower() == "none" else _whole(args.limit)
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


def _whole(text: str) -> int:
    """A limit as typed: digits only, checked like any other (a non-number fails the check as text)."""
    from .model import check_limit

    return check_limit(int(text) if text.strip().isascii() and text.strip().isdigit() and len(text) <= 20 else text)


def _submit(args: argparse.Namespace, backend: Any) -> int:
    from .model import JobError, JobSpec, parse_time

    try:
        if args.script == "-":
            script = sys.stdin.read()
        else:
            with open(args.script, encoding="utf-8") as f:
                script = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read script {args.script}: {getattr(e, 'strerror', None) or e}") from None
    variables = dict(parse_var(v) for v in args.var)
    types = args.types
    if not types and args.gateway:
        types = None  # the gateway derives them from its own tables, and adds any named
    elif not args.gateway:
        from ..workspace import Workspace
        from .types import NoTable, job_types

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
    spec = JobSpec(
        script,
        types=tuple(types or ()),
        vars=variables,
        priority=args.priority,
        not_before=not_before,
        max_attempts=args.max_attempts,
        max_seconds=args.max_seconds,
        idempotency_key=key,
    )
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
    from .model import QueueFull

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
    from .model import FINAL

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
