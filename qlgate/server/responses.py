"""The gateway's one JSON response shape (also for errors), with its server headers."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .._version import __version__
from ..config import Secrets
from ..values import MISSING, dump_json


def json_response(
    value: Any, status: int = 200, headers: dict[str, str] | None = None, secrets: Secrets | None = None
) -> web.Response:
    """``secrets``: mask the config's secret values should an answer carry one (an
    upstream that echoes a credential must not hand it to the caller)."""
    body = dump_json(value if value is not MISSING else None)
    if secrets is not None:
        body = secrets.mask(body)
    response = web.Response(text=body, status=status, content_type="application/json", headers=headers)
    response.headers["Server"] = f"qlgate/{__version__}"
    response.headers["X-Powered-By"] = f"qlgate/{__version__}"
    return response
