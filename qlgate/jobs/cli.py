"""``qlgate worker`` and ``qlgate jobs …``: run workers, and submit, watch,
cancel and limit jobs — on ZooKeeper directly (``--zookeeper``) or through a
gateway's REST API (``--gateway``)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import signal
import sys
import threading
import time
import uuid
from datetime import datetime, timezone
from typing import Any

from ..errors import QlError
from .model import (FINAL, MAX_RUN_SECONDS, MAX_STORED_RESULT_BYTES, Job, JobError, QueueFull, check_limit, check_run_seconds,
                    parse_time)
from .rates import Rate

log = logging.getLogger("qlgate.jobs")


class JobsCommandError(QlError):
    status = 400


def add_parsers(sub: argparse._SubParsersAction, common) -> None:
    worker = sub.add_parser("worker", help="run jobs from the cluster (and stand for limiter master)")
    worker.add_argument("--zookeeper", required=True, metavar="HOST:PORT[,...]")
    common(worker, routes=False)
    worker.add_argument("--slots", type=int, default=4, help="runs at once on this worker")
    worker.add_argument("--name", help="worker name (default: host-pid)")
    worker.add_argument("--session-timeout", type=float, default=10.0, metavar="S",
                        help="ZooKeeper session timeout: how long a dead worker's runs stay held")
    worker.add_argument("--no-limiter", action="store_true", help="do not stand for limiter master")
    worker.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    worker.add_argument("--database", "--archive", dest="database", metavar="URL|FILE",
                        help="the cluster's database of finished jobs and results: a postgresql:// URL or a SQLite file (default: config jobs.database, else $QLGATE_JOBS_DATABASE, else .qlgate/jobs.sqlite); keep a password out of the URL with PGPASSWORD or ~/.pgpass")
    worker.add_argument("--keep-finished", type=float, default=3600.0, metavar="S",
                        help="how long finished jobs stay in ZooKeeper before they are archived")
    worker.add_argument("--stop-timeout", type=float, default=None, metavar="S",
                        help="SIGTERM stops the worker within S seconds whatever ZooKeeper's state "
                             "(default: config jobs.stopTimeout, 10)")
    worker.add_argument("--root", default="/qlgate", help=argparse.SUPPRESS)

    limiter = sub.add_parser("limiter", help="stand for limiter master only (no jobs run here)")
    limiter.add_argument("--zookeeper", required=True, metavar="HOST:PORT[,...]")
    limiter.add_argument("--name", help="candidate name (default: limiter-host-pid)")
    limiter.add_argument("--session-timeout", type=float, default=10.0, metavar="S")
    limiter.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    limiter.add_argument("--database", "--archive", dest="database", metavar="URL|FILE",
                         help="the cluster's database of finished jobs (as for worker)")
    limiter.add_argument("--keep-finished", type=float, default=3600.0, metavar="S")
    limiter.add_argument("--stop-timeout", type=float, default=None, metavar="S",
                         help="SIGTERM stops the limiter within S seconds (default: config jobs.stopTimeout, 10)")
    limiter.add_argument("--config", metavar="FILE", help="config file (default: config/dev.json)")
    limiter.add_argument("--root", default="/qlgate", help=argparse.SUPPRESS)

    jobs = sub.add_parser("jobs", help="submit, watch, cancel and limit jobs")
    actions = jobs.add_subparsers(dest="action", required=True)

    def target(p: argparse.ArgumentParser) -> None:
        where = p.add_mutually_exclusive_group(required=True)
        where.add_argument("--zookeeper", metavar="HOST:PORT[,...]", help="talk to the cluster directly")
        where.add_argument("--gateway", metavar="URL", help="talk through a gateway's REST API")
        p.add_argument("--api-key", metavar="KEY", default=os.environ.get("QLGATE_API_KEY"),
                       help="with --gateway: the API key to send (default: $QLGATE_API_KEY)")
        p.add_argument("--json", action="store_true", help="machine-readable output")
        p.add_argument("--database", "--archive", dest="database", metavar="URL|FILE",
                       help="with --zookeeper: the cluster's database of finished jobs and results "
                            "(default: $QLGATE_JOBS_DATABASE, else .qlgate/jobs.sqlite if it exists)")
        p.add_argument("--root", default="/qlgate", help=argparse.SUPPRESS)

    submit = actions.add_parser("submit", help="queue a script as a job; prints its id")
    submit.add_argument("script", metavar="SCRIPT_FILE")
    submit.add_argument("--var", action="append", default=[], metavar="NAME=VALUE")
    submit.add_argument("--type", action="append", dest="types", metavar="T",
                        help="partner-API type (default: derived from the tables the script uses)")
    submit.add_argument("--priority", type=int, default=0)
    submit.add_argument("--not-before", metavar="TIME", help="ISO time, epoch seconds or +30s / +5m / +2h")
    submit.add_argument("--max-attempts", type=int, default=3, help="1 to 20")
    submit.add_argument("--max-seconds", type=float, metavar="S",
                        help="the run's deadline (default and most: config jobs.maxRunSeconds, 3600)")
    submit.add_argument("--idempotency-key", metavar="KEY",
                        help="a second submit with the same key answers the first one's job (default: a "
                             "fresh key, so this command's own retries never queue a job twice)")
    common(submit, routes=False)
    target(submit)
    for name, text in (("status", "a job's state, attempts and timings"), ("cancel", "cancel a job"),
                       ("result", "a finished job's result")):
        p = actions.add_parser(name, help=text)
        p.add_argument("id", type=int)
        target(p)
    listing = actions.add_parser("list", help="jobs, newest first")
    listing.add_argument("--state", choices=("queued", "running", "done", "failed", "cancelled"))
    listing.add_argument("--limit", type=int, default=100)
    target(listing)
    wait = actions.add_parser("wait", help="block until the jobs end")
    wait.add_argument("ids", type=int, nargs="+", metavar="ID")
    wait.add_argument("--timeout", type=float, metavar="S")
    target(wait)
    limits = actions.add_parser("limits", help="show limits, or set one: limits TYPE N ('none' removes it)")
    limits.add_argument("type", nargs="?")
    limits.add_argument("limit", nargs="?")
    target(limits)
    rates = actions.add_parser("rates", help="show call-rate limits, or set one: rates TYPE 20/s|5000/day|none")
    rates.add_argument("type", nargs="?")
    rates.add_argument("rate", nargs="?")
    target(rates)


# ------------------------------------------------------------------ worker

def run_worker(args: argparse.Namespace) -> int:
    from .zk.session import zk_client

    from ..loop import install
    from ..workspace import Workspace, load_config
    import asyncio

    from .runner import EngineRunner
    from .zk.limiter import Limiter
    from .zk.worker import Worker

    _log_to_stderr(args.log_level)
    if args.slots < 1:
        raise JobsCommandError("--slots must be at least 1")
    config = load_config(args.config)
    settings = cluster_settings(config, args)
    # the limiter and kazoo threads wait on the network all the time; with the default
    # 5 ms switch interval each wait costs them up to 5 ms behind the busy job loop
    sys.setswitchinterval(0.0002)
    install()
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="worker-loop", daemon=True).start()
    # jobs run under the trust they were submitted with: this config's gateway.adhoc for callers' scripts
    workspace = asyncio.run_coroutine_threadsafe(Workspace.open(tables=args.tables, config=config), loop).result(30)
    if workspace.emulator is not None:
        log.warning("no eBay credentials: this worker's eBay tables use its own emulator at %s",
                    workspace.emulator.base)
    client = zk_client(args.zookeeper, timeout=args.session_timeout, retry_max_delay=settings["retryMaxDelay"])
    client.start(30)
    from .rates import CallGate
    from .zk.rates import ZkTokens
    gate = CallGate(ZkTokens(client, root=args.root))
    # the worker wraps the gate in its lease: every call of a run checks it (zk/lease.py)
    archive = open_archive(cluster_database(config, args), settings)
    worker = Worker(client, EngineRunner(workspace, gate), name=args.name, slots=args.slots, root=args.root,
                    loop=loop, max_run_seconds=settings["maxRunSeconds"], call_timeout=settings["callTimeout"],
                    archive=archive, max_result_bytes=int(settings["maxResultBytes"]))
    limiter = None if args.no_limiter else Limiter(client, name=worker.name, root=args.root, archive=archive,
                                                    keep_finished=args.keep_finished,
                                                    server_lag=settings["serverLag"])
    stop = _stop_on_signals()
    worker.start()
    if limiter is not None:
        limiter.start()
    log.info("worker %s with %d slot(s) on %s%s", worker.name, args.slots, args.zookeeper,
             "" if limiter is not None else " (no limiter here)")
    stop.wait()
    bound = settings["stopTimeout"]
    _exit_at_the_latest(bound, f"worker {worker.name}")
    log.info("worker %s stopping within %g s: runs in hand get 40%% of it to finish", worker.name, bound)
    if limiter is not None:
        limiter.stop(timeout=bound * 0.1)
    worker.stop(drain=True, timeout=bound * 0.8)
    _close_client(client, bound * 0.1)
    log.info("worker %s stopped", worker.name)
    return 0


def run_limiter(args: argparse.Namespace) -> int:
    """A dedicated limiter candidate: its decisions never wait behind job work."""
    import os
    import socket

    from ..workspace import load_config
    from .zk.session import zk_client
    from .zk.limiter import Limiter

    _log_to_stderr(args.log_level)
    config = load_config(args.config)
    settings = cluster_settings(config, args)
    archive = open_archive(cluster_database(config, args), settings)
    sys.setswitchinterval(0.0002)      # decisions wait on kazoo's thread: hand the GIL over promptly
    client = zk_client(args.zookeeper, timeout=args.session_timeout, retry_max_delay=settings["retryMaxDelay"])
    client.start(30)
    limiter = Limiter(client, name=args.name or f"limiter-{socket.gethostname()}-{os.getpid()}",
                      root=args.root, archive=archive, keep_finished=args.keep_finished,
                      server_lag=settings["serverLag"]).start()
    stop = _stop_on_signals()
    log.info("limiter %s on %s", limiter.name, args.zookeeper)
    stop.wait()
    bound = settings["stopTimeout"]
    _exit_at_the_latest(bound, f"limiter {limiter.name}")
    limiter.stop(timeout=bound * 0.8)
    _close_client(client, bound * 0.2)
    return 0


def cluster_settings(config: Any, args: argparse.Namespace | None = None) -> dict[str, float]:
    """The job cluster's timing settings from config ``jobs`` (command-line flags win):
    ``maxRunSeconds`` (3600), ``callTimeout`` (10: the longest one upstream call of a
    run may take; the limiter waits that long past a lost worker's session before it
    re-grants its runs), ``serverLag`` (10: how long a ZooKeeper server cut off from its
    leader may go on answering — the ensemble's syncLimit × tickTime; the limiter waits
    that long more), ``stopTimeout`` (10: SIGTERM to exit), ``retryMaxDelay`` (1: the
    longest back-off between ZooKeeper reconnects)."""
    from .zk.limiter import SERVER_LAG_S
    from .zk.session import RETRY_MAX_DELAY_S
    from .zk.worker import CALL_TIMEOUT_S
    jobs = (config.data.get("jobs") or {}) if config is not None else {}
    out: dict[str, float] = {}
    try:
        out["maxRunSeconds"] = check_run_seconds(jobs.get("maxRunSeconds", 3600))
        for name, default in (("callTimeout", CALL_TIMEOUT_S), ("stopTimeout", 10.0),
                              ("retryMaxDelay", RETRY_MAX_DELAY_S), ("serverLag", SERVER_LAG_S)):
            flag = getattr(args, {"stopTimeout": "stop_timeout"}.get(name, "-"), None) if args else None
            out[name] = _seconds(f"jobs.{name}", flag if flag is not None else jobs.get(name, default))
        limit = jobs.get("maxResultBytes", MAX_STORED_RESULT_BYTES)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 < limit <= 1 << 30:
            raise JobError(f"jobs.maxResultBytes must be a whole number of bytes from 1 to 1 GiB, not {limit!r}")
        out["maxResultBytes"] = limit
    except JobError as error:
        raise JobsCommandError(str(error)) from None
    return out


DEFAULT_DATABASE = ".qlgate/jobs.sqlite"


def cluster_database(config: Any, args: argparse.Namespace | None = None) -> str:
    """Where the cluster keeps finished jobs and results: ``--database``, config
    ``jobs.database`` (``jobs.archive`` before), ``$QLGATE_JOBS_DATABASE``, or the
    embedded default — the file the embedded backend uses too."""
    jobs = (config.data.get("jobs") or {}) if config is not None else {}
    return (getattr(args, "database", None) or jobs.get("database") or jobs.get("archive")
            or os.environ.get("QLGATE_JOBS_DATABASE") or DEFAULT_DATABASE)


def open_archive(target: str, settings: dict[str, float] | None) -> Any:
    """The cluster's archive, or a usage error that names it (its password masked)."""
    from .archive import Archive, ArchiveError
    try:
        return Archive(target, max_result_bytes=int((settings or {}).get("maxResultBytes", MAX_STORED_RESULT_BYTES)))
    except ArchiveError as error:
        raise JobsCommandError(str(error), status=503) from None


def _seconds(name: str, value: Any) -> float:
    least = 0 if name == "jobs.serverLag" else 1e-9      # a standalone ZooKeeper has no lag
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not least <= value < 86400:
        raise JobError(f"{name} must be a number of seconds{' above 0' if least else ''}, not {value!r}")
    return float(value)


def _log_to_stderr(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level.upper()),
                        format="%(asctime)s %(levelname)s %(name)s %(message)s", force=True)
    # kazoo's own lines on a lost connection repeat ours, with a traceback: errors only
    logging.getLogger("kazoo").setLevel(logging.ERROR)


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    return stop


def _exit_at_the_latest(seconds: float, what: str) -> None:
    """Whatever blocks the orderly stop (a ZooKeeper away, a thread in a call), the
    process ends ``seconds`` after the signal: runs it could not hand back are
    re-run elsewhere once its session has expired."""
    def hard_exit() -> None:
        log.warning("%s: not stopped within %g s; exiting now", what, seconds)
        logging.shutdown()
        os._exit(0)
    timer = threading.Timer(seconds, hard_exit)
    timer.daemon = True
    timer.start()


def _close_client(client: Any, seconds: float) -> None:
    """End the session (kazoo's stop waits on its connection thread: bounded here)."""
    closer = threading.Thread(target=lambda: (client.stop(), client.close()), daemon=True)
    closer.start()
    closer.join(max(0.1, seconds))


# ------------------------------------------------------------------ jobs

def run_jobs(args: argparse.Namespace) -> int:
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


def _backend(args: argparse.Namespace):
    if args.gateway:
        from .rest_client import GatewayJobs
        return GatewayJobs(args.gateway, api_key=args.api_key)
    from .zk.session import zk_client
    from kazoo.handlers.threading import KazooTimeoutError
    from .zk.client import ZkJobs
    from ..workspace import load_config
    client = zk_client(args.zookeeper, timeout=10)
    try:
        client.start(10)
    except KazooTimeoutError:
        raise JobError(f"cannot reach ZooKeeper at {args.zookeeper}") from None
    from pathlib import Path
    # the cluster's database and a job's longest deadline (jobs.maxRunSeconds), as this command's config
    # says (submit takes --config), else the flags, the environment and the defaults
    config = load_config(args.config) if getattr(args, "config", None) else None
    max_run = cluster_settings(config)["maxRunSeconds"] if config is not None else MAX_RUN_SECONDS
    target = args.database or ((config.data.get("jobs") or {}).get("database") if config is not None else None) \
        or os.environ.get("QLGATE_JOBS_DATABASE") or (DEFAULT_DATABASE if Path(DEFAULT_DATABASE).is_file() else None)
    return ZkJobs(client, root=args.root, id_batch=1, archive=open_archive(target, None) if target else None,
                  max_run_seconds=max_run,
                  owns_client=True)


def _act(args: argparse.Namespace, backend) -> int:
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
        print(json.dumps(backend.load_result(job), ensure_ascii=False))
    elif action == "cancel":
        job = backend.cancel(args.id)
        _print(args, job.to_dict(), f"{job.id} {job.state}{' (cancel requested)' if job.cancel_requested else ''}")
    elif action == "list":
        jobs = backend.list(args.state, limit=args.limit)
        _print(args, [j.to_dict() for j in jobs], "\n".join(_line(j) for j in jobs))
    elif action == "wait":
        jobs = backend.wait(args.ids, timeout=args.timeout)
        _print(args, [j.to_dict() for j in jobs], "\n".join(_line(j) for j in jobs))
        return 0 if all(j.state == "done" for j in jobs) else 1
    elif action == "rates":
        if args.type is not None:
            if args.rate is None:
                raise JobError("rates TYPE RATE: the rate is missing (20/s, 5000/day or none)")
            backend.set_rate(args.type, None if args.rate.lower() == "none" else Rate.parse(args.rate))
        rates = {t: r.to_dict() for t, r in backend.rates().items()}
        _print(args, rates, "\n".join(f"{t}: {r['calls']} calls per {r['per']}" for t, r in rates.items()))
    elif action == "limits":
        if args.type is not None:
            if args.limit is None:
                raise JobError("limits TYPE N: the number is missing")
            limit = None if args.limit.lower() == "none" else _whole(args.limit)
            backend.set_limit(args.type, limit)
        limits = backend.limits()
        _print(args, limits, "\n".join(f"{t}: limit {v['limit'] if v['limit'] is not None else '-'}, "
                                       f"running {v['running']}, waiting {v['waiting']}" for t, v in limits.items()))
    return 0


def _whole(text: str) -> int:
    """A limit as typed: digits only, checked like any other (a non-number fails the check as text)."""
    return check_limit(int(text) if text.strip().isascii() and text.strip().isdigit() and len(text) <= 20 else text)


def _submit(args: argparse.Namespace, backend) -> int:
    from ..cli import UsageError, parse_var
    try:
        with open(args.script, encoding="utf-8") as f:
            script = f.read()
    except OSError as e:
        raise UsageError(f"cannot read script {args.script}: {e.strerror}") from None
    variables = dict(parse_var(v) for v in args.var)
    types = args.types
    if not types and args.gateway:
        types = None              # the gateway derives them from its own tables
    elif not types:
        from ..workspace import Workspace
        from .types import job_types
        types = job_types(Workspace.load(tables=args.tables, config=args.config).engine, script)
    try:
        not_before = parse_time(args.not_before)
    except JobError as error:
        raise JobError(f"--not-before {error}") from None
    # through a gateway, one key for every try of this command: a retry after a lost answer finds
    # the first job (straight on ZooKeeper the job's id, chosen before the commit, does that)
    key = args.idempotency_key or (f"cli-{uuid.uuid4()}" if args.gateway else None)
    return submit_with_backoff(
        lambda: backend.submit(script, types=types, vars=variables, priority=args.priority,
                               not_before=not_before, max_attempts=args.max_attempts,
                               max_seconds=args.max_seconds, idempotency_key=key),
        on_wait=lambda delay: print(f"queue full, retrying in {delay:.1f} s", file=sys.stderr))


def submit_with_backoff(submit, *, tries: int = 9, on_wait=None, sleep=time.sleep) -> int:
    """Backpressure, the client's half: a full queue (429) is retried after its
    Retry-After, doubled each time with jitter, so a flood of clients spreads out."""
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
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + "Z" if t else "-"


def _line(job: Job) -> str:
    return f"{job.id}  {job.state:9}  run {job.run}  priority {job.priority}  {','.join(job.types)}"


def _describe(job: Job) -> str:
    lines = [_line(job), f"submitted {_stamp(job.submitted)}  started {_stamp(job.started)}  ended {_stamp(job.ended)}"]
    if job.not_before:
        lines.append(f"not before {_stamp(job.not_before)}")
    for attempt in job.attempts:
        lines.append(f"  run {attempt.run} on {attempt.worker}: {_stamp(attempt.started)} → {_stamp(attempt.ended)}"
                     + (f"  {attempt.error}" if attempt.error else ""))
    if job.error:
        lines.append(f"error: {job.error}")
    if job.state in FINAL and job.state == "done":
        lines.append("result: qlgate jobs result " + str(job.id))
    return "\n".join(lines)
