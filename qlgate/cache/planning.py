"""What the response cache may do for each read of one statement: its key (what is
sent, hashed; a ``using auth`` token replaced by its credential's unforgeable
stand-in), how long its answer keeps, and whether it may be stored at all (not
when it carries a caller's own credential). What is the same for every read of
the statement (the headers' part of the key, the headers the table writes
literally, its ``expires``) is worked out once, when the statement's table call
starts, not per read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import chain
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import QlError
from .keys import PROCESS_KEY, StatementKeys, caller_credentials, credential_stand_in, hook_key
from .responses import CachePlan

if TYPE_CHECKING:
    from ..http.client import HttpRequest
    from ..tables.call import CallHooks
    from ..tables.params import ParamView

_NO_TOKENS: Mapping[str, str] = MappingProxyType({})  # the credential tokens of a read without ``using auth``


class TokenSource(Protocol):
    """The credentials a run's calls take tokens from (``oauth``), as the keys read them."""

    def current(self, name: str) -> str | None: ...


class KeyPlanner:
    """The cache plans of one statement's reads against one table mapping."""

    __slots__ = (
        "_by_caller",
        "_credentials",
        "_expires",
        "_hooks",
        "_keep",
        "_keys",
        "_literal",
        "_mask",
        "_secrets",
        "_table",
        "by_hook",
    )

    def __init__(
        self,
        *,
        table: str,
        by_caller: bool,
        mapping: Any,
        expires: int | None,
        hooks: CallHooks,
        credentials: TokenSource,
        secrets: Any,
        request_id_header: str,
        request_id: str | None,
    ):
        """``expires``: seconds a read's answer may be kept (the statement's own, else
        its table's; None: not stored, the key names the call for single flight only)."""
        self._table, self._by_caller = table, by_caller
        self._expires = expires
        self._keep = mapping.expires or None  # the table's own: what an answer it fetches is stored for
        self._hooks, self._credentials, self._secrets = hooks, credentials, secrets
        self._mask: Callable[[str], str] = secrets.mask
        self._keys = StatementKeys(request_id_header=request_id_header, request_id=request_id)
        # a header written literally is the deployer's, in a deployer's table only: a
        # caller's inline table writes what it likes
        self._literal: list[str] = (
            [] if by_caller else [n.raw for n, v in mapping.headers if not n.tokens and not v.tokens]
        )
        # the table's ``compute_key`` hook chooses the key of a read that is stored
        self.by_hook = expires is not None and hooks.has("compute_key")

    def plan(self, request: HttpRequest, occurrence: int) -> CachePlan:
        """The plan of a read whose key is what it sends."""
        tokens = self._tokens()
        key: str | tuple
        if self._expires is None:  # nothing is stored: the key names the call for single flight only
            key, may_carry = self._keys.flight_keyed(request, tokens)
        else:
            key, may_carry = self._keys.keyed(request, tokens)
        storable = True
        if may_carry:
            deployer = chain(self._secrets.values, tokens.values())  # read only when a name looks like a credential
            storable = not caller_credentials(request, deployer_values=deployer, literal_headers=self._literal)
        return CachePlan(key, self._expires, storable=storable, occurrence=occurrence, mask=self._mask, keep=self._keep)

    async def hook_plan(
        self, request: HttpRequest, view: ParamView, occurrence: int, request_id_header: str
    ) -> CachePlan:
        """The plan of a read whose table's ``compute_key`` hook chooses its key."""
        key = self._keys.key(request, self._tokens())
        chosen = await self._hooks.call(
            "compute_key",
            view,
            uri=request.url,
            method=request.method,
            headers=dict(request.headers),
            body=request.body.decode("utf-8", "replace") if request.body is not None else None,
            request_id_header=request_id_header,
        )
        if chosen is None:  # the hook says: not this one
            return CachePlan(key, None, occurrence=occurrence, mask=self._mask)
        # the table chose its key, and with it what separates callers: it may be stored
        chosen_key = hook_key(
            chosen, table=self._table, method=request.method, url=request.url, by_caller=self._by_caller
        )
        return CachePlan(chosen_key, self._expires, occurrence=occurrence, mask=self._mask, keep=self._keep)

    def _tokens(self) -> Mapping[str, str]:
        """Each ``using auth`` credential's stand-in → its current token, for the key."""
        used = self._hooks.credentials_used
        if not used:
            return _NO_TOKENS
        current = self._credentials.current
        return {self._stand_in(name): current(name) or "" for name in used}

    def _stand_in(self, name: str) -> str:
        """The credential's stand-in in a cache key (``keys.credential_stand_in``)."""
        entry_of = getattr(self._credentials, "entry", None)
        try:
            entry = entry_of(name) if entry_of is not None else None
        except QlError:
            entry = None
        if entry is None or not entry.client_secret:
            fields = vars(entry) if entry is not None and hasattr(entry, "__dict__") else {}
            return credential_stand_in(
                name,
                secret=PROCESS_KEY,
                token_url=str(fields.get("token_url", "")),
                client_id=str(fields.get("client_id", "")),
                scopes=fields.get("scopes", ()),
            )
        return credential_stand_in(
            name,
            secret=entry.client_secret,
            token_url=entry.token_url,
            client_id=entry.client_id,
            scopes=entry.scopes,
            grant=entry.type,
        )
