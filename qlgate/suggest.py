"""Did-you-mean: the one rule every "no such name" error uses to name what was meant.

A name that differs only in case is taken at once; otherwise the closest by difflib's
ratio, if at least ``cutoff``. Callers choose the cutoff by how crowded their names are:
config keys are short and many (0.8), variables and config paths fewer (0.6).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def nearest(name: str, candidates: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The candidate ``name`` most likely mistypes, as the candidate is written."""
    folded = {str(c).lower(): str(c) for c in candidates}
    if name.lower() in folded:
        return folded[name.lower()]
    found = difflib.get_close_matches(name.lower(), list(folded), n=1, cutoff=cutoff)
    return folded[found[0]] if found else None
