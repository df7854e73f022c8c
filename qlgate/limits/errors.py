"""The errors of the limits: a call that could not get through its API type's
limits in the time its request had left (``LimitExceeded``), the store being
unreachable, and a bad rate or API type name (``JobError``, the job API's)."""

from __future__ import annotations

import math

from ..errors import QlError


class LimitExceeded(QlError):
    """HTTP 429: the call would exceed its API type's limit (calls in flight, a
    per-second rate, a daily quota) for longer than its request may wait. The
    gateway answers with ``Retry-After``; details name the ``api`` type, which
    ``limit`` it was, and ``retry_after`` (whole seconds)."""

    status = 429

    def __init__(self, message: str, *, api: str, limit: str, retry_after: float, table: str | None = None):
        seconds = max(1, math.ceil(retry_after))
        super().__init__(f"{message}; retry in {seconds} s", status=429)
        self.retry_after = seconds
        self.details.update({"api": api, "limit": limit, "retry_after": seconds})
        if table is not None:
            self.details["table"] = table


class LimitsUnavailable(QlError):
    """HTTP 503: the store that counts the limits (the host's SQLite file, ZooKeeper)
    cannot be read or written now, so a call of a limited API type cannot be let through."""

    status = 503


class JobError(QlError):
    """A request to the job backend or to the limits it keeps (``/jobs``, ``/limits``,
    ``/rates``, ``qlgate jobs``) that cannot be honoured; ``status`` is its HTTP status
    (400 unless a subclass says otherwise). The job backend's errors subclass it
    (``qlgate.jobs.model``); the limits raise it for a bad rate or API type name. Here,
    below both, because its name is what ``/jobs``, ``/limits`` and ``/rates`` answer as
    ``type``, whichever side raised it. A ``QlError``, so that one ``except
    QlError`` answers a job's errors like any other; code that answers job requests
    catches it (or its subclasses) first, for their statuses."""

    status = 400
