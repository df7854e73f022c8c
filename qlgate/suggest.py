"""Did-you-mean: the one rule every "no such name" error uses to name what was meant.

A name that differs only in case, or by two neighbouring letters swapped (``jbos`` for
``jobs``: the commonest slip of the fingers, which difflib's ratio scores low on short
names), is taken at once; otherwise the closest by difflib's ratio, if at least ``cutoff``. Callers choose the cutoff by how crowded their names are:
config keys are short and many (0.8), variables and config paths fewer (0.6).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def nearest(name: str, candidates: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The candidate ``name`` most likely mistypes, as the candidate is written."""
    folded = {str(c).lower(): str(c) for c in candidates}
    lowered = name.lower()
    if lowered in folded:
        return folded[lowered]
    for swapped in _transpositions(lowered):
        if swapped in folded:
            return folded[swapped]
    found = difflib.get_close_matches(name.lower(), list(folded), n=1, cutoff=cutoff)
    return folded[found[0]] if found else None


def _transpositions(name: str) -> list[str]:
    """``name`` with each pair of neighbouring (different) characters swapped."""
    return [name[:i] + name[i + 1] + name[i] + name[i + 2 :] for i in range(len(name) - 1) if name[i] != name[i + 1]]
