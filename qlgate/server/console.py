"""The web console (``/console``): plain static files served by the gateway
itself, so nothing is built at install time. The page talks to the gateway's
own public endpoints (``/q``, ``/tables``, ``/routes``, and ``/jobs/backend``,
``/limits`` and ``/rates`` for its jobs view) and nothing else. What it keeps —
the script and its variables — stays in the browser (local storage, and the
fragment of a shared link, which is never sent to the gateway).
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from aiohttp import web

from .._version import __version__

STATIC = Path(__file__).with_name("console")


def add_console(app: web.Application, *, adhoc_enabled: bool, auth: bool = False) -> None:
    """``auth``: the gateway wants API keys; the page asks for one on the first 401
    and keeps it in the tab's session storage (``console/api.js``)."""
    page = (
        (STATIC / "index.html")
        .read_text(encoding="utf-8")
        .replace("{adhoc}", "true" if adhoc_enabled else "false")
        .replace("{auth}", "true" if auth else "false")
        .replace("{version}", escape(__version__))
    )

    async def handle_console(request: web.Request) -> web.Response:
        response = web.Response(text=page, content_type="text/html")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; frame-ancestors 'none'"
        )
        return response

    app.router.add_get("/console", handle_console)
    app.router.add_get("/console/", handle_console)
    app.router.add_static("/console/static/", STATIC, append_version=False)
