"""The members a JSON request body may have, and the 400 that names any other.

A member the gateway does not know is refused rather than ignored: ``{"s": …,
"varz": {…}}`` used to run the script without its variables and answer ``200
null``, a silence that costs a caller an afternoon. The refusal names the member,
the one it most likely mistypes (``suggest.nearest``) and the members there are."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..errors import InvalidRequestBody
from ..suggest import nearest


class UnknownMember(InvalidRequestBody):
    """A JSON body's member the endpoint does not take (``details["unknown"]`` lists them)."""


def refuse_unknown_members(body: Mapping[str, Any], known: Collection[str], where: str) -> None:
    """Raise ``UnknownMember`` naming each member of ``body`` not in ``known``."""
    unknown = [name for name in body if name not in known]
    if not unknown:
        return
    said = []
    for name in unknown:
        meant = nearest(name, known)
        said.append(f'"{name}"' + (f' (did you mean "{meant}"?)' if meant else ""))
    listed = ", ".join(f'"{name}"' for name in known)
    plural = "s" if len(unknown) > 1 else ""
    raise UnknownMember(
        f"the JSON body of {where} has no member{plural} {', '.join(said)}; it takes {listed}",
        unknown=unknown,
    )
