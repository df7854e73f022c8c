"""The gateway's one JSON response shape (also for errors), with its server headers."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .._version import __version__
from ..config import Secrets
from ..values import MISSING, dump_json_bytes

# the ``type`` of an error answer that no QlError named (a 404 for a path, a 405, a bad body)
ERROR_TYPES = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    408: "RequestTimeout",
    409: "Conflict",
    413: "PayloadTooLarge",
    414: "URITooLong",
    415: "UnsupportedMediaType",
    417: "ExpectationFailed",
    429: "TooManyRequests",
    431: "HeadersTooLarge",
    500: "InternalError",
    502: "BadGateway",
    503: "Unavailable",
    504: "GatewayTimeout",
}


def error_shape(value: dict[str, Any], status: int) -> dict[str, Any]:
    """An error answer in the one shape: ``err``, ``type`` and ``status`` first, always,
    then whatever else it says (``missing``, ``line``…)."""
    rest = {k: v for k, v in value.items() if k not in ("err", "type", "status")}
    kind = value.get("type") or ERROR_TYPES.get(status, "HttpError")
    return {"err": value["err"], "type": kind, "status": value.get("status", status), **rest}


def json_response(
    value: Any, status: int = 200, headers: dict[str, str] | None = None, secrets: Secrets | None = None
) -> web.Response:
    """``secrets``: mask the config's secret values should an answer carry one (an
    upstream that echoes a credential must not hand it to the caller). An error's
    body gets the one error shape (``error_shape``), whoever wrote it."""
    if status >= 400 and isinstance(value, dict) and "err" in value:
        value = error_shape(value, status)
    body = dump_json_bytes(value if value is not MISSING else None)
    if secrets is not None:
        body = secrets.mask_bytes(body)
    response = web.Response(body=body, status=status, content_type="application/json", charset="utf-8", headers=headers)
    response.headers["Server"] = f"qlgate/{__version__}"
    response.headers["X-Powered-By"] = f"qlgate/{__version__}"
    return response
