"""Config ``jobs`` as one place reads it for every process that keeps or runs
jobs — a gateway (embedded or on ``--zookeeper``), ``qlgate worker``, ``qlgate
limiter``, ``qlgate jobs``: the typed settings (``JobsSettings``, read through
the declared keys), the cluster's timings, where finished jobs are kept, and that
database opened.

Its other imports (the job model, the typed settings, ``settings.py``) wait for a
call: the command modules import this one while the command line is parsed, before
anyone knows a job command will run.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from ..errors import QlError

if TYPE_CHECKING:
    from .settings import JobsSettings


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
    from .model import JobError, check_run_seconds
    from .settings import settings_view

    view = settings_view(config)
    out: dict[str, float] = {}
    try:
        out["maxRunSeconds"] = check_run_seconds(view.number("jobs.maxRunSeconds"))
        for name in ("callTimeout", "stopTimeout", "retryMaxDelay", "serverLag"):
            flag = getattr(args, {"stopTimeout": "stop_timeout"}.get(name, "-"), None) if args else None
            out[name] = _seconds(f"jobs.{name}", flag if flag is not None else view.number(f"jobs.{name}"))
        out["maxResultBytes"] = view.integer("jobs.maxResultBytes")
    except JobError as error:
        raise JobsCommandError(str(error)) from None
    return out


def cluster_database(config: Any, args: argparse.Namespace | None = None) -> str:
    """Where the cluster keeps finished jobs and results: ``--database``, config
    ``jobs.database`` (``jobs.archive`` before), ``$QLGATE_JOBS_DATABASE``, or the
    embedded default — the file the embedded backend uses too."""
    from .settings import DEFAULT_DATABASE, JobsSettings

    return (
        getattr(args, "database", None)
        or JobsSettings.of(config).database
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


def embedded_database(settings: JobsSettings) -> str | None:
    """The embedded backend's SQLite file (config ``jobs.database``, else
    ``$QLGATE_JOBS_DATABASE``, else ``.qlgate/jobs.sqlite``); None when the setting
    names another database (a cluster's PostgreSQL)."""
    from .settings import DEFAULT_DATABASE

    database = settings.database or os.environ.get("QLGATE_JOBS_DATABASE") or DEFAULT_DATABASE
    if "://" in database and not database.startswith("sqlite:///"):
        return None
    return database.removeprefix("sqlite://")
