"""The config ``auth`` entries: what each OAuth2 credential is and where its secrets
come from, checked when a table first uses it (and by ``qlgate auth``).

    "auth": {
      "ebay.app":  {"type": "oauth2-client-credentials", "tokenUrl": "…", "clientId": "${EBAY_APP_ID}",
                    "clientSecret": "${EBAY_CERT_ID}", "scopes": ["https://api.ebay.com/oauth/api_scope"]},
      "ebay.user": {"type": "oauth2-refresh-token", …, "refreshToken": "${EBAY_REFRESH_TOKEN}"
                    | "refreshTokenFile": "~/.config/qlgate/ebay-user.token",
                    "authorizeUrl": "…", "ruName": "…" | "redirectUri": "http://127.0.0.1:8765/callback"}
    }

Names may hold dots. A misspelt or missing key is an ``AuthConfigError`` naming the
entry and the key, never a traceback and never a request sent with half a credential.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from ..suggest import nearest
from .errors import AuthConfigError

CLIENT_CREDENTIALS = "oauth2-client-credentials"
REFRESH_TOKEN = "oauth2-refresh-token"
TYPES = (CLIENT_CREDENTIALS, REFRESH_TOKEN)
GRANTS = {CLIENT_CREDENTIALS: "client_credentials", REFRESH_TOKEN: "refresh_token"}
KEYS = (
    "type",
    "tokenUrl",
    "clientId",
    "clientSecret",
    "scopes",
    "refreshToken",
    "refreshTokenFile",
    "authorizeUrl",
    "redirectUri",
    "ruName",
)


@dataclass(frozen=True)
class OAuthEntry:
    name: str
    type: str
    token_url: str
    client_id: str
    client_secret: str
    scopes: tuple[str, ...] = ()
    refresh_token: str = ""
    refresh_token_file: Path | None = None
    authorize_url: str = ""
    redirect_uri: str = ""
    ru_name: str = ""

    @property
    def grant(self) -> str:
        """The grant its access tokens are asked for with."""
        return GRANTS[self.type]

    @property
    def login_redirect(self) -> str:
        """The ``redirect_uri`` of the consent URL and the code exchange: eBay takes its
        RuName there (it stands for the URL registered with the application)."""
        return self.ru_name or self.redirect_uri

    @property
    def basic_credentials(self) -> str:
        """``base64(client_id:client_secret)``, each part form-encoded first as RFC 6749
        §2.3.1 says: what the token request's ``Authorization: Basic`` carries (as good
        as the secret itself, so a secret too)."""
        pair = f"{quote(self.client_id, safe='')}:{quote(self.client_secret, safe='')}"
        return base64.b64encode(pair.encode()).decode()

    def secrets(self) -> tuple[str, ...]:
        """What masking hides: the client secret, the refresh token, and the Basic
        credentials (alone and as the header value) an endpoint might echo."""
        basic = self.basic_credentials
        return tuple(s for s in (self.client_secret, self.refresh_token, basic, "Basic " + basic) if s)

    def read_refresh_token(self) -> str:
        """The refresh token, from the entry or from its file (read each time a token is
        fetched, so a ``qlgate auth login`` takes effect without a restart)."""
        if self.refresh_token:
            return self.refresh_token
        file = self.refresh_token_file
        if file is None:
            raise self.error("refreshToken", f"is empty: set it, or run `qlgate auth login {self.name}`")
        try:
            text = _read_small(file).decode("utf-8").strip()
        except FileNotFoundError:
            raise self.error(
                "refreshTokenFile", f"{file} does not exist: run `qlgate auth login {self.name}`"
            ) from None
        except (OSError, UnicodeDecodeError) as e:
            raise self.error("refreshTokenFile", f"cannot read {file}: {getattr(e, 'strerror', None) or e}") from None
        if not text:
            raise self.error("refreshTokenFile", f"{file} is empty: run `qlgate auth login {self.name}`")
        return text

    def cache_key(self, refresh_token: str = "") -> str:
        """Where its token is kept in the shared store: a digest of what makes two
        entries' tokens interchangeable (endpoint, client, scopes, grant, and for a user
        token the refresh token's own digest, so logging in as someone else is a new key)."""
        user = hashlib.sha256(refresh_token.encode()).hexdigest() if refresh_token else ""
        material = json.dumps([self.token_url, self.client_id, sorted(self.scopes), self.grant, user])
        return hashlib.sha256(material.encode()).hexdigest()[:40]

    def error(self, key: str, problem: str) -> AuthConfigError:
        return AuthConfigError(f"config auth entry '{self.name}': {key} {problem}", entry=self.name, key=key)


def entries_of(config: dict[str, Any]) -> dict[str, Any]:
    """The raw ``auth`` object of a config document (empty when it has none)."""
    section = config.get("auth")
    if section is None:
        return {}
    if not isinstance(section, dict):
        raise AuthConfigError("config auth must be an object of credential names to entries", key="auth")
    return section


def entry_of(config: dict[str, Any], name: str, *, login: bool = False) -> OAuthEntry:
    """The entry ``name`` of config ``auth``, checked. ``login``: for ``qlgate auth
    login``, which needs the consent endpoints and not yet a refresh token."""
    raw = entries_of(config).get(name)
    if raw is None:
        known = ", ".join(sorted(entries_of(config))) or "none"
        raise AuthConfigError(
            f"no config auth entry '{name}' (a table says `using auth '{name}'`); entries: {known}", entry=name
        )
    return parse_entry(name, raw, login=login)


def parse_entry(name: str, raw: Any, *, login: bool = False) -> OAuthEntry:
    def fail(key: str, problem: str) -> AuthConfigError:
        return AuthConfigError(f"config auth entry '{name}': {key} {problem}", entry=name, key=key)

    if not isinstance(raw, dict):
        raise AuthConfigError(f"config auth entry '{name}' must be an object", entry=name)
    for key in raw:
        meant = nearest(str(key), KEYS, cutoff=0.8) if key not in KEYS else None
        if meant is not None:
            raise fail(str(key), f"is not a key of an auth entry; did you mean {meant}?")

    def text(key: str, *, required: bool) -> str:
        value = raw.get(key)
        if value is None or value == "":
            if required:
                hint = " (is its environment variable set?)" if key in ("clientId", "clientSecret") else ""
                raise fail(key, f"is missing or empty{hint}")
            return ""
        if not isinstance(value, str):
            raise fail(key, f"must be text, not {type(value).__name__}")
        return value.strip()

    kind = raw.get("type")
    if kind not in TYPES:
        raise fail("type", f"must be one of {', '.join(TYPES)}, not {kind!r}")
    token_url = text("tokenUrl", required=True)
    _check_url(token_url, lambda problem: fail("tokenUrl", problem))
    scopes = raw.get("scopes", [])
    if isinstance(scopes, str):
        scopes = scopes.split()
    if not isinstance(scopes, list) or not all(isinstance(s, str) and s.strip() for s in scopes):
        raise fail("scopes", "must be a list of scope names")
    file_text = text("refreshTokenFile", required=False)
    entry = OAuthEntry(
        name=name,
        type=kind,
        token_url=token_url,
        client_id=text("clientId", required=True),
        client_secret=text("clientSecret", required=True),
        scopes=tuple(s.strip() for s in scopes),
        refresh_token=text("refreshToken", required=False),
        refresh_token_file=_expanded(file_text, lambda problem: fail("refreshTokenFile", problem)),
        authorize_url=text("authorizeUrl", required=login),
        redirect_uri=text("redirectUri", required=False),
        ru_name=text("ruName", required=False),
    )
    if login:
        if kind != REFRESH_TOKEN:
            raise fail("type", f"is {kind}: `qlgate auth login` is for {REFRESH_TOKEN} entries (user tokens)")
        _check_url(entry.authorize_url, lambda problem: fail("authorizeUrl", problem))
        if not entry.login_redirect:
            raise fail("redirectUri", "is missing: give redirectUri (or eBay's ruName)")
    elif kind == REFRESH_TOKEN and not entry.refresh_token and entry.refresh_token_file is None:
        raise fail(
            "refreshToken",
            f"is missing or empty (is its environment variable set?): run `qlgate auth login {name}`, "
            "or give refreshTokenFile",
        )
    return entry


def _check_url(url: str, fail: Any) -> None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 — a port that is not a number raises here, not at the first request
    except ValueError as e:
        raise fail(f"is not a valid URL ({e}): {url[:100]!r}") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise fail(f"must be an http(s) URL, not {url[:100]!r}")


def _expanded(path: str, fail: Any) -> Path | None:
    if not path:
        return None
    try:
        return Path(path).expanduser()
    except RuntimeError as e:  # "~nobody/…": no such user's home
        raise fail(f"cannot be expanded: {e}") from None


MAX_REFRESH_TOKEN_FILE = 65536  # bytes; eBay's refresh tokens are a few hundred


def _read_small(file: Path) -> bytes:
    """The bytes of a regular file of at most ``MAX_REFRESH_TOKEN_FILE`` bytes; OSError
    otherwise (a device, a FIFO or a directory is never read: ``/dev/zero`` would never end,
    a FIFO would block the event loop)."""
    fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{file} is not a regular file")
        data = os.read(fd, MAX_REFRESH_TOKEN_FILE + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_REFRESH_TOKEN_FILE:
        raise OSError(f"{file} is over {MAX_REFRESH_TOKEN_FILE} bytes: not a refresh token")
    return data
