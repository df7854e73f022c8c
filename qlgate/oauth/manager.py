"""The access tokens of one engine: obtained when a table (or a patch) first needs
one, kept until shortly before they expire, fetched once however many calls wait
(single flight, per credential), shared with the engine's sibling processes
through the on-disk store, and renewed once when upstreams refuse one.

Every token is added to the config's secrets the moment it is known, so the
masking that keeps config secrets out of results, errors, diagnostics and logs
keeps tokens out as well; the last few tokens of each credential stay masked
(an upstream may echo a token it has just refused), older ones are dropped — unless
another entry sharing the credential (the same cache key) still holds or masks it.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..config_env import variables_at
from .client import fetch_token
from .entries import OAuthEntry, entries_of, entry_of, parse_entry
from .errors import AuthConfigError
from .store import TokenStore
from .tokens import Token

if TYPE_CHECKING:
    from ..http.client import HttpClient

MASKED_PER_CREDENTIAL = 4  # the tokens of a credential kept masked: the current one and three before it


class TokenManager:
    """``await manager.access_token("ebay.app")``: a bearer token for that config
    ``auth`` entry. The engine has one (``Engine.credentials``)."""

    def __init__(
        self, config: Config, http: HttpClient | Callable[[], HttpClient], *, clock: Callable[[], float] = time.time
    ):
        """``http``: the client tokens are fetched with, or a function that gives it when
        the first token is fetched (the engine makes its client on first use)."""
        self.config = config
        self._http = http
        self.clock = clock
        self._entries: dict[str, OAuthEntry] = {}
        self._tokens: dict[str, Token] = {}  # by entry name
        self._flights: dict[str, asyncio.Future[Token]] = {}
        self._masked: dict[str, deque[str]] = {}
        self._store: TokenStore | None = None
        self._store_opened = False
        self.requests = 0  # tokens this process asked an endpoint for (tests, ``qlgate auth status``)

    @property
    def http(self) -> HttpClient:
        if callable(self._http):
            self._http = self._http()
        return self._http

    # ------------------------------------------------------------------ what tables and patches use
    def entry(self, name: str) -> OAuthEntry:
        """The checked config entry ``name`` (an ``AuthConfigError`` naming it and the key)."""
        entry = self._entries.get(name)
        if entry is None:
            try:
                entry = self._entries[name] = entry_of(self.config.data, name)
            except AuthConfigError as error:
                raise _naming_its_variable(error, self.config, name) from None
            for secret in entry.secrets():
                self.config.secrets.add(secret)
        return entry

    async def access_token(self, name: str) -> str:
        """A token for entry ``name`` that is good for a while yet."""
        token = self._tokens.get(name)
        if token is not None and token.fresh(self.clock()):
            return token.value
        return (await self._obtain(name, None)).value

    def current(self, name: str) -> str | None:
        """The token last handed out for ``name``, fresh or not; None before the first."""
        token = self._tokens.get(name)
        return token.value if token is not None else None

    async def renew(self, name: str, rejected: str) -> str:
        """A token to retry with after an upstream refused ``rejected``: a newer one if
        another call has already fetched it, else one fetched now, once for all the
        calls refused with the same token (in this process and, through the store, in
        the gateway's others)."""
        value = rejected
        for _ in range(2):
            held = self._tokens.get(name)
            if held is not None and held.value != rejected and held.fresh(self.clock()):
                return held.value
            if held is not None and held.value == rejected:
                del self._tokens[name]
            value = (await self._obtain(name, rejected)).value
            if value != rejected:
                break
        return value  # the refused token again only if the endpoint handed it out again: the retry will say

    # ------------------------------------------------------------------ single flight
    async def _obtain(self, name: str, rejected: str | None) -> Token:
        loop = asyncio.get_running_loop()
        flight = self._flights.get(name)
        if flight is None or flight.done() or flight.get_loop() is not loop:
            flight = loop.create_task(self._fetch(name, rejected))
            flight.add_done_callback(_retrieved)
            self._flights[name] = flight
            flight.add_done_callback(lambda done: self._landed(name, done))
        # shielded: a caller that gives up (a cancelled statement) leaves the fetch to the others
        return await asyncio.shield(flight)

    def _landed(self, name: str, flight: asyncio.Future[Token]) -> None:
        if self._flights.get(name) is flight:
            del self._flights[name]

    async def _fetch(self, name: str, rejected: str | None) -> Token:
        entry = self.entry(name)
        refresh = entry.read_refresh_token() if entry.grant == "refresh_token" else ""
        if refresh:
            self.config.secrets.add(refresh)
        store = self._shared()
        if store is None:
            token = await self._request(entry, refresh)
        else:
            key = entry.cache_key(refresh)
            async with store.locked(key):
                stored = store.read(key)
                if stored is not None and stored.value != rejected and stored.fresh(self.clock()):
                    token = stored
                else:
                    token = await self._request(entry, refresh)
                    try:
                        store.write(key, token)
                    except OSError:
                        pass  # not shared this time; this process still has it
        self._remember(name, token)
        return token

    async def _request(self, entry: OAuthEntry, refresh: str) -> Token:
        self.requests += 1
        token = await fetch_token(self.http, entry, refresh)
        self.config.secrets.add(token.value)  # masked before anything can show it
        return token

    def _remember(self, name: str, token: Token) -> None:
        secrets = self.config.secrets
        secrets.add(token.value)
        masked = self._masked.setdefault(name, deque())
        self._tokens[name] = token
        if token.value not in masked:
            masked.append(token.value)
            if len(masked) > MASKED_PER_CREDENTIAL:
                old = masked.popleft()
                # entries that share a cache key share their tokens: one still held (or kept
                # masked) by another entry stays masked
                shared = any(old in kept for kept in self._masked.values())
                if not shared and all(held.value != old for held in self._tokens.values()):
                    secrets.discard(old)

    def _shared(self) -> TokenStore | None:
        if not self._store_opened:
            self._store = TokenStore.open(self.config.view)
            self._store_opened = True
        return self._store

    # ------------------------------------------------------------------ ``qlgate auth status``
    def status(self) -> list[dict[str, Any]]:
        """Each configured entry: its type, endpoint and scopes, whether a token is
        cached (here or in the store) and when it expires — never the token."""
        out: list[dict[str, Any]] = []
        now = self.clock()
        for name, raw in entries_of(self.config.data).items():
            row: dict[str, Any] = {"name": name}
            try:
                entry = parse_entry(name, raw)
            except AuthConfigError as e:
                out.append({**row, "type": raw.get("type") if isinstance(raw, dict) else None, "problem": e.message})
                continue
            row.update(type=entry.type, tokenUrl=entry.token_url, scopes=list(entry.scopes))
            token = self._tokens.get(name)
            store = self._shared()
            if token is None and store is not None:
                try:
                    refresh = entry.read_refresh_token() if entry.grant == "refresh_token" else ""
                except AuthConfigError as e:
                    out.append({**row, "cached": False, "problem": e.message})
                    continue
                token = store.read(entry.cache_key(refresh))
            row["cached"] = token is not None and token.expires_at > now
            if token is not None:
                try:
                    row["expiresAt"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(token.expires_at))
                    row["expiresIn"] = max(0, round(token.expires_at - now))
                except (OverflowError, ValueError, OSError):  # a time no calendar holds
                    row["problem"] = "the cached token has an impossible expiry time"
            out.append(row)
        return out


def _retrieved(flight: asyncio.Future[Token]) -> None:
    """Mark a failed fetch's error as seen: its callers got it, or have all gone."""
    if not flight.cancelled():
        flight.exception()


def _naming_its_variable(error: AuthConfigError, config: Config, name: str) -> AuthConfigError:
    """``error`` about an empty key, saying which environment variable fills it: "clientId
    is missing" is a riddle to someone who exported EBAY_APP_ID but not EBAY_CERT_ID."""
    key = error.details.get("key")
    variables = variables_at(config, ("auth", name, key)) if isinstance(key, str) else []
    if not variables or "is missing" not in error.message:
        return error
    unset = " or ".join(variables)
    message = error.message.replace("(is its environment variable set?)", f"(set {unset})")
    if message == error.message:
        message = f"{message} (set {unset})"
    return AuthConfigError(message, entry=name, key=key, variable=variables[0])
