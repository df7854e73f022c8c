"""Config ``jobs`` as one place reads it for every process that keeps or runs
jobs — a gateway (embedded or on ``--zookeeper``), ``qlgate worker``, ``qlgate
limiter``, ``qlgate jobs``: the typed settings (``JobsSettings``, read through
the declared keys), the cluster's timings, where finished jobs are kept, and that
database opened.

Its model imports wait for a call: the command modules import this one while
the command line is parsed, before anyone knows a job command will run.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import Any

from ..config_keys import declared_default
from ..config_values import ConfigView
from ..errors import QlError

DEFAULT_DATABASE: str = declared_default("jobs.database")


@dataclass(frozen=True)
class JobsSettings:
    """Config ``jobs``, typed: each field the declared key's value or default.
    ``database`` is what the config writes (``archive``, the older name, when
    ``database`` is not), None when it writes neither: where it then is depends on
    who asks (``embedded_database``, ``cluster_database``)."""

    database: str | None = None
    max_run_seconds: float = declared_default("jobs.maxRunSeconds")
    max_queue: int = declared_default("jobs.maxQueue")
    slots: int = declared_default("jobs.slots")
    session_timeout: float = declared_default("jobs.sessionTimeout")

    @classmethod
    def of(cls, config: Any) -> JobsSettings:
        """``config``: a loaded ``Config``, a config document, or None (the defaults)."""
        view = _view(config)
        return cls(
            # what is written only: the declared default comes after $QLGATE_JOBS_DATABASE
            database=(view.has("jobs.database") and view.text("jobs.database")) or view.text("jobs.archive") or None,
            max_run_seconds=view.number("jobs.maxRunSeconds"),
            max_queue=view.integer("jobs.maxQueue"),
            slots=view.integer("jobs.slots"),
            session_timeout=view.number("jobs.sessionTimeout"),
        )


def _view(config: Any) -> ConfigView:
    if config is None:
        return ConfigView({})
    return config if isinstance(config, ConfigView) else ConfigView(getattr(config, "data", config))


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

    view = _view(config)
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
    database = settings.database or os.environ.get("QLGATE_JOBS_DATABASE") or DEFAULT_DATABASE
    if "://" in database and not database.startswith("sqlite:///"):
        return None
    return database.removeprefix("sqlite://")
