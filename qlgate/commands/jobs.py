"""``qlgate jobs …``: submit, watch, cancel and limit jobs — on ZooKeeper
directly (``--zookeeper``) or through a gateway's REST API (``--gateway``). The
processes a cluster runs (``qlgate worker``, ``qlgate limiter``) are in
``daemons.py``; the cluster's settings in ``qlgate/jobs/cluster.py``.

Which cluster, when no flag says: ``$QLGATE_GATEWAY``, else a gateway on the
local default address (``qlgate serve`` with no options) when one answers its
``/health`` there — a loopback probe that fails at once when nothing listens —
so that trying jobs against a local gateway needs no flag at all. Otherwise the
command line is incomplete: a usage error (exit 2).

``jobs wait`` on a terminal draws a progress line on stderr (queued, running,
ended) while it waits; piped, it prints the listing only. Its ``--timeout``
ends it with exit status 3, a job that did not end well with 1.

What each action does, and how it prints, is in ``jobs_actions.py``. The job
model and the backends are imported when an action runs, not at the top: this
module is imported whenever the command line is parsed.
"""

from __future__ import annotations

import argparse
import json
import os

from ..jobs.cluster import JobsCommandError
from .arguments import UsageError, add_workspace_options, number_in
from .output import add_format_option

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
    listing.add_argument("--limit", type=number_in("--limit", 1, 1000), default=100)
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
    wait.add_argument(
        "--timeout",
        type=number_in("--timeout", 0, whole=False),
        metavar="S",
        help="give up after S seconds (exit status 3)",
    )
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
    from ..jobs.model import JobError
    from .jobs_actions import act, open_backend

    _choose_target(args)
    try:
        backend = open_backend(args)
    except JobError as error:
        raise JobsCommandError(str(error), status=error.status) from None
    try:
        return act(args, backend)
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
