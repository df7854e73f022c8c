"""Config ``jobs``, typed: what a job backend, a worker and the job commands read
of it, through the declared keys (``config_keys``), with their defaults. Apart from
``cluster.py`` so that parsing the command line (which imports that) does not
import the config's model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config_keys import declared_default
from ..config_values import ConfigView

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
        view = settings_view(config)
        return cls(
            # what is written only: the declared default comes after $QLGATE_JOBS_DATABASE
            database=(view.has("jobs.database") and view.text("jobs.database")) or view.text("jobs.archive") or None,
            max_run_seconds=view.number("jobs.maxRunSeconds"),
            max_queue=view.integer("jobs.maxQueue"),
            slots=view.integer("jobs.slots"),
            session_timeout=view.number("jobs.sessionTimeout"),
        )


def settings_view(config: Any) -> ConfigView:
    """``config`` (a loaded ``Config``, a document, a view, or None: the defaults) as a view."""
    if config is None:
        return ConfigView({})
    return config if isinstance(config, ConfigView) else ConfigView(getattr(config, "data", config))
