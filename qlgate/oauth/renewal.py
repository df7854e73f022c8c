"""Renewing the tokens a refused call carried, once for all the calls refused with
them. A call of a fan-out that is refused (``rejection.py``) renews each
credential whose *current* token it sent; one whose token another call renewed
meanwhile needs nothing, since the rebuilt request takes the new one. So a
hundred calls refused with one expired token cost one token request, not a
hundred (the token manager's own single flight covers calls renewing at once).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..http.client import HttpRequest


class Renewable(Protocol):
    """The credentials a run's calls take tokens from (``manager.Credentials``)."""

    def current(self, name: str) -> str | None: ...
    async def renew(self, name: str, refused: str) -> str: ...


async def renew_sent(credentials: Renewable, names: Iterable[str], request: HttpRequest) -> bool:
    """Renew each of the credentials ``names`` whose current token ``request``
    carried (in a header or its body). Is there a token to send again with?"""
    sent = list(request.headers.values())
    body = request.body
    again = False
    for name in sorted(names):
        current = credentials.current(name)
        if current is None:
            continue
        again = True
        if any(current in value for value in sent) or (body and current.encode() in body):
            await credentials.renew(name, current)
    return again
