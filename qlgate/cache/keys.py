"""Cache keys (spec §10.9): what makes a request distinct — method, final URL,
the headers the table sends (names lower-cased, sorted, the connection's and the
request id the engine generated left out), body — hashed with SHA-256, so a key
never holds a secret in clear. A deployer's OAuth2 token (``using auth 'NAME'``)
enters the key as an unforgeable stand-in (``credential_stand_in``: an HMAC keyed
with the credential's client secret over what identifies it), not its value: a
renewed token does not empty the cache, and no caller can write the stand-in.

And which requests may be stored (``caller_credentials``): never one carrying a
caller's own credential, unless the table's ``compute_key`` hook chose its key.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote_plus

if TYPE_CHECKING:
    from ..http.client import HttpRequest


# hop-by-hop and per-connection headers (and ``proxy-*`` but Proxy-Authorization);
# every other header a table sends (Host, User-Agent, …) may select what is answered
_NOT_KEYED = frozenset({"connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "content-length"})
IDEMPOTENT = frozenset({"GET", "HEAD"})
# keys a credential's stand-in when it has no client secret (never leaves this process)
PROCESS_KEY = secrets.token_bytes(32)

# names of headers and query parameters that carry a credential
CREDENTIAL_NAME = re.compile(
    r"^(authorization|proxy-authorization|cookie)$|token|api[-_]?key|apikey|secret|session|password|passwd|signature"
    r"|^(key|sig|auth|access[-_]?key|client[-_]?secret)$",
    re.I,
)
# every name CREDENTIAL_NAME matches holds one of these: none of them in the header names
# and the query means no credential-named header or parameter, without parsing the query
# (substring tests: a regex of alternatives took 10 µs on a read's few names)
_CREDENTIAL_WORDS = ("auth", "cookie", "token", "key", "secret", "session", "passw", "sig")


def _maybe_credential(text: str) -> bool:
    lowered = text.lower()
    # a plain loop, not any(): on every read's path, and any(map(…)) took twice as long
    for word in _CREDENTIAL_WORDS:  # noqa: SIM110
        if word in lowered:
            return True
    return False


def _query_names_credential(url: str) -> bool:
    query = url.partition("?")[2].partition("#")[0]
    if not query:
        return False
    return _maybe_credential(unquote_plus(query) if "%" in query or "+" in query else query)  # ?%6Bey= is ?key=


_SCHEME_WORDS = re.compile(r"\b(bearer|basic|token|digest|iaf|oauth)\b|\*\*\*\*|[\s=,:;\"']", re.I)


def request_key(
    request: HttpRequest,
    *,
    request_id_header: str,
    request_id: str | None = None,
    credential_tokens: Mapping[str, str] | None = None,
) -> str:
    """The SHA-256 key of what ``request`` sends. ``credential_tokens``: the stand-in
    (``credential_stand_in``) → the current token of each ``using auth`` credential
    the request carried; wherever a token appears, its stand-in replaces it. The
    request-id header is left out only when it holds the engine's id (``request_id``)."""
    tokens = {t: n for n, t in (credential_tokens or {}).items() if t}
    return _key_of(request, tokens, _headers_text(request.headers, request_id_header.lower(), request_id, tokens))


def _key_of(request: HttpRequest, tokens: Mapping[str, str], headers_text: str) -> str:
    # every part length-prefixed, so no two requests' parts run together into one text;
    # hashed in one go (one encode, one update: this runs for every read a script makes)
    method, url = request.method.upper(), _named(request.url, tokens) if tokens else request.url
    text = f"{len(method)}:{method}{len(url)}:{url}{headers_text}"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass"))
    if request.body is not None:
        digest.update(b"\x01" + request.body)
    return "r:" + digest.hexdigest()


def _headers_text(headers: Mapping[str, str], rid: str, request_id: str | None, tokens: Mapping[str, str]) -> str:
    """The headers' part of a key's text: the keyed ones, sorted, length-prefixed."""
    parts: list[str] = []
    for name, value in sorted((k.lower(), v) for k, v in headers.items()):
        if name in _NOT_KEYED or (name.startswith("proxy-") and name != "proxy-authorization"):
            continue
        if name == rid and request_id and value == request_id:
            continue
        parts += (name, _named(value, tokens) if tokens else value)
    return "".join(f"{len(part)}:{part}" for part in parts)


_NO_TOKENS: Mapping[str, str] = MappingProxyType({})  # a read without ``using auth``


class StatementKeys:
    """The cache keys of one statement's requests. The headers' part of a key, and
    whether any header is named like a credential (``keyed``), depend on the headers
    alone (the request id left out): they are worked out once per distinct set of
    headers in the process (``_HEADER_PARTS``), not per call. Requests of one table
    send the same headers run after run, so for most reads this is a lookup; a request
    whose headers differ (a patch's, a renewed token) gets its own entry."""

    __slots__ = ("_name", "_request_id", "_rid")

    def __init__(self, *, request_id_header: str, request_id: str | None = None):
        self._name = request_id_header  # as configured: the request carries it so
        self._rid, self._request_id = request_id_header.lower(), request_id

    def key(self, request: HttpRequest, credential_tokens: Mapping[str, str] | None = None) -> str:
        """``request_key`` of ``request`` (the same key, to the bit)."""
        return self.keyed(request, credential_tokens)[0]

    def keyed(self, request: HttpRequest, credential_tokens: Mapping[str, str] | None = None) -> tuple[str, bool]:
        """``request_key`` of ``request``, and whether a header or query parameter of it
        is named like a credential (False for most reads: ``caller_credentials`` then
        has nothing to find)."""
        tokens, text, named_credential = self._parts(request, credential_tokens)
        return _key_of(request, tokens, text), named_credential

    def flight_keyed(
        self, request: HttpRequest, credential_tokens: Mapping[str, str] | None = None
    ) -> tuple[tuple[str, str, str, str, bytes | None], bool]:
        """What names ``request`` for single flight alone, when nothing will be stored:
        the same parts as ``keyed``'s key (the run's request id left out), as a tuple
        that never leaves the process, so neither hashed with SHA-256 nor formatted
        into one text (a tenth of a coalesced read's engine work)."""
        _, text, named_credential = self._parts(request, credential_tokens)
        return ("f", request.method.upper(), request.url, text, request.body), named_credential

    def _parts(
        self, request: HttpRequest, credential_tokens: Mapping[str, str] | None
    ) -> tuple[Mapping[str, str], str, bool]:
        """What both keys are made of: the tokens (value → stand-in), the headers' part,
        and whether a header or query parameter is named like a credential."""
        tokens = {t: n for n, t in credential_tokens.items() if t} if credential_tokens else _NO_TOKENS
        text, named_credential = self._header_part(request.headers, tokens)
        return tokens, text, named_credential or _query_names_credential(request.url)

    def _header_part(self, headers: dict[str, str], tokens: Mapping[str, str]) -> tuple[str, bool]:
        rid, request_id = self._rid, self._request_id
        sent_as = None  # the name the run's id went under: not part of what is asked
        if request_id:
            sent_as = self._name
            if headers.get(sent_as) != request_id:  # a patch may have renamed it (lower case)
                sent_as = next((n for n, v in headers.items() if v == request_id and n.lower() == rid), None)
            if sent_as is not None:
                headers = dict(headers)
                del headers[sent_as]
        seen = (rid, tuple(headers.items()), tuple(tokens.items()) if tokens else (), sent_as is not None)
        part = _HEADER_PARTS.get(seen)
        if part is None:
            names = "\n".join((*headers, rid) if sent_as is not None else headers)
            part = (_headers_text(headers, rid, None, tokens), _maybe_credential(names))
            # headers that may carry a credential (a caller's own, a token) are not kept
            # process-wide: worked out again for each statement
            if not part[1] and not tokens:
                if len(_HEADER_PARTS) >= MAX_HEADER_PARTS:  # headers a caller's script chose: kept bounded
                    _HEADER_PARTS.clear()
                _HEADER_PARTS[seen] = part
        return part


# (the request-id header's name, headers without the run's id, tokens, whether the id was sent)
# → (the headers' part of a key, named like a credential?); only for headers without credentials
_HEADER_PARTS: dict[tuple[str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], bool], tuple[str, bool]] = {}
MAX_HEADER_PARTS = 4096


def hook_key(value: object, *, table: str, method: str, url: str, by_caller: bool = False) -> str:
    """The key a ``compute_key`` hook chose, hashed like the others (it may hold a
    secret) with what it cannot share across: the table, the method, the URL's origin
    and whether a caller's inline table chose it."""
    scheme, _, rest = url.partition("://")
    origin = f"{scheme}://{rest.split('/', 1)[0].split('?', 1)[0].split('#', 1)[0]}".lower()
    digest = hashlib.sha256()
    for text in (table, method.upper(), origin, "c" if by_caller else "d"):
        data = text.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big") + data)
    digest.update(str(value).encode("utf-8", "surrogatepass"))
    return "h:" + digest.hexdigest()


def credential_stand_in(
    name: str,
    *,
    secret: str | bytes,
    token_url: str = "",
    client_id: str = "",
    scopes: Iterable[str] = (),
    grant: str = "",
) -> str:
    """What replaces a ``using auth`` token in a key: an HMAC-SHA256 keyed with a
    deployer secret (the credential's client secret, else the engine's random key)
    over what identifies the credential. No caller can write it in a header of its
    own, and two deployments whose credentials share a name get different ones."""
    key = secret.encode("utf-8", "surrogatepass") if isinstance(secret, str) else secret
    text = "\x00".join((name, token_url, client_id, " ".join(sorted(scopes)), grant))
    mac = hmac.new(key, text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()
    return f"\x00credential:{mac}\x00"


def _named(text: str, tokens: Mapping[str, str]) -> str:
    for token, stand_in in tokens.items():
        if token in text:
            text = text.replace(token, stand_in)
    return text


def caller_credentials(
    request: HttpRequest,
    *,
    deployer_values: Iterable[str],
    literal_headers: Iterable[str] = (),
) -> list[str]:
    """The credential-like headers and query parameters of ``request`` whose value is
    not the deployer's: a header or parameter named like a credential (Authorization,
    Cookie, …token…, …api-key…, …secret…) whose value holds anything but the config's
    secrets, the engine's OAuth2 tokens (``deployer_values``) and scheme words
    (``Bearer``), unless the table writes it literally (``literal_headers``). Such a
    value came from a script or the incoming request: the caller's own credential."""
    if not _maybe_credential("\n".join(request.headers)) and not _query_names_credential(request.url):
        return []  # nothing named like a credential at all: most reads, decided in one scan
    query = request.url.partition("?")[2].partition("#")[0]
    secrets = sorted({v for v in deployer_values if v}, key=len, reverse=True)
    literal = {h.lower() for h in literal_headers}

    def callers(value: str) -> bool:
        for secret in secrets:
            value = value.replace(secret, "")
        return bool(_SCHEME_WORDS.sub("", value))

    found = [
        name
        for name, value in request.headers.items()
        if CREDENTIAL_NAME.search(name) and name.lower() not in literal and value and callers(value)
    ]
    if query:
        found += [
            f"?{name}"
            for name, value in parse_qsl(query, keep_blank_values=False)
            if CREDENTIAL_NAME.search(name) and callers(value)
        ]
    return found
