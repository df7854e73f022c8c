"""Cache keys (spec §10.9): what makes a request distinct — method, final URL,
the headers the table sends (names lower-cased, sorted, the connection's and the
request id left out), body — hashed with SHA-256, so a key never holds a secret
in clear. A deployer's OAuth2 token (``using auth 'NAME'``) enters the key as
the credential's name, not its value: a renewed token does not empty the cache.

And which requests may be stored (``caller_credentials``): never one carrying a
caller's own credential, unless the table's ``compute_key`` hook chose its key.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from urllib.parse import parse_qsl, urlsplit

from ..http.client import HttpRequest

# hop-by-hop and per-connection headers, and what differs on every request of the same call
_NOT_KEYED = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "user-agent",
        "content-length",
        "host",
    }
)
IDEMPOTENT = frozenset({"GET", "HEAD"})

# names of headers and query parameters that carry a credential
CREDENTIAL_NAME = re.compile(
    r"^(authorization|proxy-authorization|cookie)$|token|api[-_]?key|apikey|secret|session|password|passwd|signature"
    r"|^(key|sig|auth|access[-_]?key|client[-_]?secret)$",
    re.I,
)
_SCHEME_WORDS = re.compile(r"\b(bearer|basic|token|digest|iaf|oauth)\b|\*\*\*\*|[\s=,:;\"']", re.I)


def request_key(
    request: HttpRequest,
    *,
    request_id_header: str,
    credential_tokens: Mapping[str, str] | None = None,
) -> str:
    """The SHA-256 key of what ``request`` sends. ``credential_tokens``: credential
    name → the current token of each ``using auth`` credential the request
    carried; wherever a token appears, its name stands in for it."""
    tokens = {t: n for n, t in (credential_tokens or {}).items() if t}
    digest = hashlib.sha256()

    def part(text: str | bytes) -> None:
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)

    part(request.method.upper())
    part(_named(request.url, tokens))
    skip = _NOT_KEYED | {request_id_header.lower()}
    headers = sorted((k.lower(), v) for k, v in request.headers.items() if k.lower() not in skip)
    for name, value in headers:
        part(name)
        part(_named(value, tokens))
    part(b"" if request.body is None else b"\x01" + request.body)
    return "r:" + digest.hexdigest()


def hook_key(value: object) -> str:
    """The key a ``compute_key`` hook chose, hashed like the others (it may hold a secret)."""
    return "h:" + hashlib.sha256(str(value).encode("utf-8", "surrogatepass")).hexdigest()


def _named(text: str, tokens: Mapping[str, str]) -> str:
    for token, name in tokens.items():
        if token in text:
            text = text.replace(token, f"<credential {name}>")
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
    query = urlsplit(request.url).query
    if query:
        found += [
            f"?{name}"
            for name, value in parse_qsl(query, keep_blank_values=False)
            if CREDENTIAL_NAME.search(name) and callers(value)
        ]
    return found
