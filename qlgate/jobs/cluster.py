"""A job cluster's settings as one place reads them for every process that
joins it — ``qlgate worker``, ``qlgate limiter``, ``qlgate jobs`` and a gateway
on ``--zookeeper``: the timings from config ``jobs``, where finished jobs are
kept, and that database opened.

Its model imports wait for a call: the command modules import this one while
the command line is parsed, before anyone knows a job command will run.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..errors import QlError

DEFAULT_DATABASE = ".qlgate/jobs.sqlite"


class JobsCommandError(QlError):
    """A job command or a cluster setting that cannot be: reported as the CLI's
    JSON error (400 unless the cause says otherwise: 503 for a database out of
    reach, 504 for a wait that timed out)."""

    status = 400


def cluster_settings(config: Any, args: argparse.Namespace | None = None) -> dict[str, float]:
    """The job cluster's timing settings from config ``jobs`` (command-line flags win):
    ``maxRunSeconds`` (3600), ``callTimeout`` (10: the longest one upstream call of a
    run may take; the limiter waits that long past a lost worker's session before it
    re-grants its runs), ``serverLag`` (10: how long a ZooKeeper server cut off from its
    leader may go on answering — the ensemble's syncLimit × tickTime; the limiter waits
    that long more), ``stopTimeout`` (10: SIGTERM to exit), ``retryMaxDelay`` (1: the
    longest back-off between ZooKeeper reconnects)."""
    from .model import MAX_STORED_RESULT_BYTES, JobError, check_run_seconds
    from .zk.limiter import SERVER_LAG_S
    from .zk.session import RETRY_MAX_DELAY_S
    from .zk.worker import CALL_TIMEOUT_S

    jobs = (config.data.get("jobs") or {}) if config is not None else {}
    out: dict[str, float] = {}
    try:
        out["maxRunSeconds"] = check_run_seconds(jobs.get("maxRunSeconds", 3600))
        for name, default in (
            ("callTimeout", CALL_TIMEOUT_S),
            ("stopTimeout", 10.0),
            ("retryMaxDelay", RETRY_MAX_DELAY_S),
            ("serverLag", SERVER_LAG_S),
        ):
            flag = getattr(args, {"stopTimeout": "stop_timeout"}.get(name, "-"), None) if args else None
            out[name] = _seconds(f"jobs.{name}", flag if flag is not None else jobs.get(name, default))
        limit = jobs.get("maxResultBytes", MAX_STORED_RESULT_BYTES)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 < limit <= 1 << 30:
            raise JobError(f"jobs.maxResultBytes must be a whole number of bytes from 1 to 1 GiB, not {limit!r}")
        out["maxResultBytes"] = limit
    except JobError as error:
        raise JobsCommandError(str(error)) from None
    return out


def cluster_database(config: Any, args: argparse.Namespace | None = None) -> str:
    """Where the cluster keeps finished jobs and results: ``--database``, config
    ``jobs.database`` (``jobs.archive`` before), ``$QLGATE_JOBS_DATABASE``, or the
    embedded default — the file the embedded backend uses too."""
    jobs = (config.data.get("jobs") or {}) if config is not None else {}
    return (
        getattr(args, "database", None)
        or jobs.get("database")
        or jobs.get("archive")
        or os.environ.get("QLGATE_JOBS_DATABASE")
        or DEFAULT_DATABASE
    )


def open_archive(target: str, settings: dict[str, float] | None) -> Any:
    """The cluster's archive, or a usage error that names it (its password masked)."""
    from .archive import Archive, ArchiveError
    from .model import MAX_STORED_RESULT_BYTES

    try:
        return Archive(target, max_result_bytes=int((settings or {}).get("maxResultBytes", MAX_STORED_RESULT_BYTES)))
    except ArchiveError as error:
        raise JobsCommandError(str(error), status=503) from None


def _seconds(name: str, value: Any) -> float:
    from .model import JobError

    least = 0 if name == "jobs.serverLag" else 1e-9  # a standalone ZooKeeper has no lag
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not least <= value < 86400:
        raise JobError(f"{name} must be a number of seconds{' above 0' if least else ''}, not {value!r}")
    return float(value)


def embedded_database(settings: dict[str, Any]) -> str | None:
    """The embedded backend's SQLite file (config ``jobs.database``, else
    ``$QLGATE_JOBS_DATABASE``, else ``.qlgate/jobs.sqlite``); None when the setting
    names another database (a cluster's PostgreSQL)."""
    database = str(settings.get("database") or os.environ.get("QLGATE_JOBS_DATABASE") or DEFAULT_DATABASE)
    if "://" in database and not database.startswith("sqlite:///"):
        return None
    return database.removeprefix("sqlite://")
