"""The web console (``/console``): plain static files served by the gateway
itself, so nothing is built at install time. The page talks to the gateway's
own public endpoints (``/q``, ``/tables``, ``/routes``, and ``/jobs/backend``,
``/limits`` and ``/rates`` for its jobs view) and nothing else. What it keeps —
the script and its variables — stays in the browser (local storage, and the
fragment of a shared link, which is never sent to the gateway).

The files are read once, when the gateway starts, into a table of name →
bytes: a request names one of them or gets a 404, so no path a client sends
is ever opened.
"""

from __future__ import annotations

import hashlib
from html import escape
from pathlib import Path

from .._version import __version__
from .request import Request
from .response import Response, json_response
from .router import Router

STATIC = Path(__file__).with_name("console")
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
}
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'"
)


class ConsoleFiles:
    """The console's files in memory, with their media types and ETags."""

    def __init__(self, folder: Path = STATIC) -> None:
        self.files: dict[str, tuple[bytes, str, str]] = {}
        for path in sorted(folder.iterdir()):
            if path.is_file() and path.suffix in MEDIA_TYPES:
                data = path.read_bytes()
                tag = '"' + hashlib.sha256(data).hexdigest()[:20] + '"'
                self.files[path.name] = (data, MEDIA_TYPES[path.suffix], tag)

    def answer(self, request: Request) -> Response:
        found = self.files.get(request.params.get("file", ""))
        if found is None:
            return json_response({"err": f"Cannot {request.method} {request.path}"}, status=404)
        data, media_type, tag = found
        if request.headers.get("If-None-Match") == tag:
            response = Response(b"", 304)
        else:
            response = Response(data, 200, media_type)
        response.headers["ETag"] = tag
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


def add_console(router: Router, *, adhoc_enabled: bool, auth: bool = False) -> None:
    """``auth``: the gateway wants API keys; the page asks for one on the first 401
    and keeps it in the tab's session storage (``console/api.js``)."""
    page = (
        (STATIC / "index.html")
        .read_text(encoding="utf-8")
        .replace("{adhoc}", "true" if adhoc_enabled else "false")
        .replace("{auth}", "true" if auth else "false")
        .replace("{version}", escape(__version__))
        .encode("utf-8")
    )
    files = ConsoleFiles()

    async def handle_console(request: Request) -> Response:
        response = Response(page, 200, "text/html; charset=utf-8")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Content-Security-Policy"] = PAGE_POLICY
        return response

    async def handle_file(request: Request) -> Response:
        return files.answer(request)

    router.add("GET", "/console", handle_console)
    router.add("GET", "/console/", handle_console)
    router.add("GET", "/console/static/{file:rest}", handle_file)
