"""What the access log of ``qlgate serve`` says: one JSON object per line and
request, and one for each connection that ended without a request the
gateway could answer (a malformed head, a client gone mid-body, too many
connections): ``error`` says which.

The lines go to the gateway's log sink (``logsink.py``), which a thread
writes to stderr: the event loop only appends. An application that embeds
the gateway without one gets the same objects from the logger
``qlgate.access``.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from ..values import dump_json

if TYPE_CHECKING:
    from ..diagnostics import Diagnostics
    from .gateway import Gateway
    from .logsink import LogSink
    from .request import Request

access_log = logging.getLogger("qlgate.access")


def write(gateway: Gateway, request: Request, status: int, started: float) -> None:
    """The line of one answered request."""
    sink = gateway.access_log
    if sink is None and not access_log.isEnabledFor(logging.INFO):
        return
    principal = request.principal
    line = dump_json(
        {
            "time": timestamp(),
            "method": request.method,
            "path": request.path,
            "status": status,
            "ms": round((time.perf_counter() - started) * 1000, 2),
            "request_id": request.id,
            "remote": request.remote,
            "key": principal.name if principal is not None else None,
            **upstream(request.calls),
            **({"trace_id": request.trace.trace_id} if request.trace is not None else {}),
        }
    )
    _emit(sink, line)


def write_unanswered(
    gateway: Gateway, status: int, remote: str | None, problem: str, method: str | None = None
) -> None:
    """The line of a connection's request that no handler saw: one the gateway could
    not parse or would not read (``status`` what it answered, 0 if nothing), or one
    whose client went away before it was read whole."""
    sink = gateway.access_log
    if sink is None and not access_log.isEnabledFor(logging.INFO):
        return
    line = dump_json(
        {
            "time": timestamp(),
            "method": method,
            "path": None,
            "status": status,
            "ms": 0,
            "request_id": None,
            "remote": remote,
            "key": None,
            **upstream(None),
            "error": problem,
        }
    )
    _emit(sink, line)


def _emit(sink: LogSink | None, line: str) -> None:
    if sink is not None:
        sink.write(line)
    else:
        access_log.info(line)


def upstream(diagnostics: Diagnostics | None) -> dict[str, Any]:
    """The access log's account of a run's calls: ``upstream_calls`` sent upstream (not
    answered from the cache, not shared with another request's identical call in flight:
    ``cache_hits``, ``shared``), and the milliseconds calls waited before they were sent
    (back-off, ``Retry-After``) and queued for their API type's limits, when there were any."""
    if diagnostics is None or not diagnostics.calls:
        return {"upstream_calls": 0, "cache_hits": 0, "shared": 0}
    sent = hits = shared = 0
    waited = queued = 0.0
    for call in diagnostics.calls:  # one pass: this runs for every request
        source = call.source
        if source == "sent":
            sent += 1
        elif source == "cache":
            hits += 1
        elif source == "coalesced":
            shared += 1
        waited += call.waited or 0.0
        queued += call.queued or 0.0
    fields: dict[str, Any] = {"upstream_calls": sent, "cache_hits": hits, "shared": shared}
    if waited:
        fields["waited_ms"] = round(waited * 1000, 2)
    if queued:
        fields["queued_ms"] = round(queued * 1000, 2)
    return fields


_stamp: list = [0, ""]  # the second last formatted, and its text: one strftime a second


def timestamp() -> str:
    """Now, as ``2026-11-24T00:12:03.123Z``."""
    now = time.time()
    second = int(now)
    if second != _stamp[0]:
        _stamp[0], _stamp[1] = second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    return f"{_stamp[1]}.{int(now * 1000) % 1000:03d}Z"
