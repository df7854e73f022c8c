"""``qlgate auth``: the OAuth2 credentials of config ``auth``. ``login NAME`` runs the
authorization-code flow for a user token and keeps the refresh token where the
entry says; ``status`` lists the entries and whether a token is cached. No
command prints an access token: the refresh token printed by ``login`` for an
entry without ``refreshTokenFile`` is the one secret shown, on purpose, in the
user's own terminal.

Standard library only at the top, like every command module; the OAuth modules
and aiohttp are imported when an action runs.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .arguments import UsageError

if TYPE_CHECKING:
    from ..config import Config
    from ..oauth.entries import OAuthEntry

DESCRIPTION = """Manage the OAuth2 credentials of config "auth" that tables name
with `using auth 'NAME'`. `login NAME` opens the entry's consent page (its
authorizeUrl), takes the redirect on a loopback listener (--port, or the port of
a loopback redirectUri) or as the URL you paste (--paste; eBay's RuName), trades
the code for a refresh token and writes it to the entry's refreshTokenFile (mode
0600), or prints the export line for the environment variable its refreshToken
names. `status` lists the entries, their type and whether a token is cached,
never a token."""

_ENV_REFERENCE = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True)
    login = actions.add_parser(
        "login",
        help="get a user's refresh token (authorization-code flow)",
        description="Print the consent URL of auth entry NAME, take the redirect, trade its code for a "
        "refresh token and keep it where the entry says (refreshTokenFile, or an export line to run).",
    )
    login.add_argument("name", metavar="NAME", help="the config auth entry (e.g. ebay.user)")
    login.add_argument("--config", metavar="FILE", help="config file (default: config/dev.json)")
    mode = login.add_mutually_exclusive_group()
    mode.add_argument("--port", type=int, metavar="N", help="take the redirect on 127.0.0.1:N")
    mode.add_argument("--paste", action="store_true", help="read the redirect URL (or the code) from stdin")
    login.add_argument("--no-browser", action="store_true", help="only print the consent URL")
    login.add_argument("--timeout", type=float, default=300.0, metavar="S", help="wait at most S seconds")
    status = actions.add_parser(
        "status",
        help="list the auth entries and their cached tokens",
        description="List each config auth entry: its type, token endpoint and scopes, whether an access "
        "token is cached and when it expires (never the token), or what is wrong with the entry.",
    )
    status.add_argument("--config", metavar="FILE", help="config file (default: config/dev.json)")


def run(args: argparse.Namespace) -> int:
    from ..loop import run as run_coroutine

    if args.action == "status":
        return int(run_coroutine(_status(args)))
    return int(run_coroutine(_login(args)))


def _config(args: argparse.Namespace) -> Config:
    """The config as a gateway would read it, eBay's endpoints filled in for the
    environment it names (so eBay's entries need no URLs of their own)."""
    from ..config import Config
    from ..ebay.environments import ENDPOINTS, resolved_environment, with_endpoints
    from ..workspace import load_config

    config = load_config(args.config)
    if "ebay" not in config.data:
        return config
    environment = resolved_environment(config.data)
    if environment not in ENDPOINTS:  # the emulator: its own config names its endpoints
        _stderr(
            f"{config.path or 'This config'} runs eBay on the built-in emulator, which lives only inside "
            "each 'qlgate run' or 'qlgate serve'. For eBay's sandbox or production set EBAY_ENVIRONMENT "
            "and the keys; for an emulator of your own, start 'qlgate sandbox --write-config FILE' and "
            "pass --config FILE."
        )
        return config
    return Config.from_dict(with_endpoints(config.data, environment), env={}, path=config.path, secrets=config.secrets)


async def _status(args: argparse.Namespace) -> int:
    from ..http.client import HttpClient
    from ..oauth.manager import TokenManager

    config = _config(args)
    manager = TokenManager(config, HttpClient(proxy=config.settings.proxy))
    sys.stdout.write(json.dumps(manager.status(), indent=2, ensure_ascii=False) + "\n")
    return 0


async def _login(args: argparse.Namespace) -> int:
    import webbrowser

    from ..http.client import HttpClient
    from ..oauth import login
    from ..oauth.entries import entry_of

    config = _config(args)
    entry = entry_of(config.data, args.name, login=True)
    consent = login.consent(entry)
    port = args.port if args.port is not None else None if args.paste else login.loopback_port(entry)
    say = _stderr
    say(f"Open this URL in a browser and consent for auth entry '{entry.name}':\n\n  {consent.url}\n")
    if not args.no_browser:
        webbrowser.open(consent.url)
    if port is None:
        say("Then paste here the URL your browser was sent to (or just its code), and press Enter:")
        pasted = await _read_line()
        code = login.code_of(pasted, consent.state, require_state=False)
    else:
        code = await login.wait_for_redirect(
            port, consent.state, args.timeout, ready=lambda p: say(f"Waiting for the redirect on 127.0.0.1:{p} …")
        )
    http = HttpClient(proxy=config.settings.proxy)  # token requests obey config proxy
    try:
        refresh = await login.exchange(http, entry, code)
    finally:
        await http.close()
    _keep(entry, refresh, config)
    return 0


def _keep(entry: OAuthEntry, refresh: str, config: Config) -> None:
    from ..oauth.login import save_refresh_token

    if entry.refresh_token_file is not None:
        path = save_refresh_token(entry.refresh_token_file, refresh)
        _stderr(f"Saved the refresh token of '{entry.name}' to {path} (mode 0600).")
        sys.stdout.write(json.dumps({"entry": entry.name, "refreshTokenFile": str(path)}) + "\n")
        return
    variable, named = _env_variable(entry.name, config.path)
    if named:
        where = f'its refreshToken is "${{{variable}}}"'
    else:  # a literal token, or none, in the file: say what to write there
        where = f'write "refreshToken": "${{{variable}}}" in the entry of {config.path or "your config"}'
    _stderr(
        f"The entry '{entry.name}' has no refreshTokenFile: keep this refresh token in the environment "
        f"variable {variable} ({where}). It is a password: keep it out of shell history and files "
        "others can read."
    )
    sys.stdout.write(f"export {variable}={shlex.quote(refresh)}\n")


def _env_variable(name: str, path: Path | None) -> tuple[str, bool]:
    """The variable the entry's ``refreshToken`` names (``"${EBAY_REFRESH_TOKEN}"``) in
    the config file as written (and True), else one made from the entry's name (and
    False: the file does not read it yet)."""
    raw: Any = None
    if path is not None:
        try:
            raw = json.loads(path.read_text(encoding="utf-8")).get("auth", {}).get(name, {}).get("refreshToken")
        except (OSError, ValueError, AttributeError):
            raw = None
    match = _ENV_REFERENCE.match(raw) if isinstance(raw, str) else None
    if match:
        return match.group(1), True
    return "QLGATE_" + re.sub(r"[^A-Za-z0-9]+", "_", name).upper() + "_REFRESH_TOKEN", False


async def _read_line() -> str:
    import asyncio

    line = await asyncio.to_thread(sys.stdin.readline)
    if not line:
        raise UsageError("no redirect URL on stdin (it was closed)")
    return line


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
