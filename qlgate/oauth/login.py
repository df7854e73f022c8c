"""The authorization-code flow behind ``qlgate auth login`` (RFC 6749 §4.1): a user
consents in a browser, the authorization server sends the browser back with a
code, the code is exchanged for a refresh token, and the refresh token is kept
where the config entry says.

The redirect arrives either at a listener on 127.0.0.1 (the entry's ``redirectUri``
is a loopback URL) or as the URL the user copies from the browser's address bar
and pastes (eBay's RuName leads to a page of eBay's own). A random ``state``
travels with the consent URL and must come back with the code, so a request to
the listener that did not come from this consent is answered and ignored.
"""

from __future__ import annotations

import asyncio
import html
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from ..errors import QlError
from ..extras import require
from ..http.client import HttpClient
from .client import post_form
from .entries import OAuthEntry
from .store import write_private

if TYPE_CHECKING:  # aiohttp (the login extra) only for the loopback redirect: --paste needs none
    from aiohttp import web

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


class LoginFailed(QlError):
    """The consent was refused, the redirect was not this login's, or it timed out."""

    status = 401


@dataclass(frozen=True)
class Consent:
    url: str
    state: str


def consent(entry: OAuthEntry) -> Consent:
    """The URL the user opens: the entry's ``authorizeUrl`` with its client, redirect,
    scopes and a fresh ``state``."""
    state = secrets.token_urlsafe(24)
    query = {"client_id": entry.client_id, "redirect_uri": entry.login_redirect, "response_type": "code"}
    query["state"] = state
    if entry.scopes:
        query["scope"] = " ".join(entry.scopes)
    separator = "&" if "?" in entry.authorize_url else "?"
    return Consent(entry.authorize_url + separator + urlencode(query, quote_via=quote), state)


def loopback_port(entry: OAuthEntry) -> int | None:
    """The port of a loopback ``redirectUri`` (``http://127.0.0.1:8765/callback``), if any."""
    if entry.ru_name or not entry.redirect_uri:
        return None
    parts = urlsplit(entry.redirect_uri)
    if parts.scheme != "http" or parts.hostname not in LOOPBACK_HOSTS:
        return None
    try:
        return parts.port or 80
    except ValueError:
        return None


def code_of(redirect: str, state: str, *, require_state: bool) -> str:
    """The code in a redirect URL (or its query, or the bare code pasted on its own)."""
    text = redirect.strip()
    if not text:
        raise LoginFailed("nothing was pasted: paste the URL your browser was sent to after consenting")
    if "=" not in text:
        return text  # the code alone
    query = urlsplit(text).query if "?" in text else text
    params = {k: v[0] for k, v in parse_qs(query, keep_blank_values=True).items()}
    if "error" in params:
        said = params["error"] + (f": {params['error_description']}" if params.get("error_description") else "")
        raise LoginFailed(f"the authorization server did not give a code: {said[:300]}")
    returned = params.get("state")
    if (returned is None and require_state) or (returned is not None and not secrets.compare_digest(returned, state)):
        raise LoginFailed("the redirect's state is not this login's: start `qlgate auth login` again")
    code = params.get("code")
    if not code:
        raise LoginFailed("the redirect holds no code")
    return code


async def wait_for_redirect(port: int, state: str, timeout: float, *, ready: Any = None) -> str:
    """Listen on 127.0.0.1:``port`` until the browser brings this login's code (or an
    error), answering it with a short page; ``ready(port)`` is called once listening."""
    require("aiohttp", "login", "waiting for the login's redirect on 127.0.0.1 (--paste does not)")
    from aiohttp import web

    outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def handle(request: web.Request) -> web.Response:
        query = request.rel_url.raw_query_string  # still encoded: a code may hold "#" or "&"
        if "code=" not in query and "error=" not in query:
            return _page(404, "Not the redirect this login waits for.")
        try:
            code = code_of("?" + query, state, require_state=True)
        except LoginFailed as e:
            if "state" in e.message:
                return _page(400, "This redirect does not belong to the login in progress; it was ignored.")
            if not outcome.done():
                outcome.set_exception(e)
            return _page(400, f"Login failed: {e.message}")
        if not outcome.done():
            outcome.set_result(code)
        return _page(200, "Consent received. You may close this window and return to the terminal.")

    app = web.Application()
    app.router.add_route("GET", "/{tail:.*}", handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", port)
        try:
            await site.start()
        except OSError as e:
            raise LoginFailed(f"cannot listen on 127.0.0.1:{port}: {e.strerror or e}", status=400) from None
        if ready is not None:
            ready(runner.addresses[0][1])
        try:
            async with asyncio.timeout(timeout):
                return await outcome
        except TimeoutError:
            raise LoginFailed(f"no redirect came within {timeout:g} s") from None
    finally:
        await runner.cleanup()


def _page(status: int, message: str) -> web.Response:
    from aiohttp import web

    body = f"<!doctype html><meta charset=utf-8><title>qlgate</title><p>{html.escape(message)}</p>\n"
    return web.Response(status=status, text=body, content_type="text/html")


async def exchange(http: HttpClient, entry: OAuthEntry, code: str) -> str:
    """The refresh token the code is worth."""
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": entry.login_redirect}
    answer = await post_form(http, entry, form)
    refresh = answer.get("refresh_token")
    if not isinstance(refresh, str) or not refresh:
        raise LoginFailed(
            f"auth entry '{entry.name}': the token endpoint gave no refresh_token for the code", status=502
        )
    return refresh


def save_refresh_token(file: Path, token: str) -> Path:
    """Write the refresh token to ``file`` atomically, mode 0600; a missing parent
    directory is created 0700 (an existing one is left as it is)."""
    file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_private(file, token + "\n")
    return file
