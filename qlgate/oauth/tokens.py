"""An access token and how long to use it: until shortly before it expires, so a
call never leaves with a token that dies on the way. The margin (skew) is the
smaller of a minute and a tenth of the token's lifetime: eBay's two-hour tokens
are renewed a minute early, a test's three-second token 0.3 s early.

Times are wall-clock seconds (``time.time()``), not the monotonic clock: tokens are
shared through a file by processes that do not share a monotonic origin.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

MAX_SKEW = 60.0
SKEW_SHARE = 0.1


@dataclass(frozen=True)
class Token:
    value: str
    expires_at: float  # wall-clock seconds
    obtained_at: float

    @property
    def lifetime(self) -> float:
        return max(0.0, self.expires_at - self.obtained_at)

    @property
    def renew_at(self) -> float:
        """When to stop using it and fetch another."""
        return self.expires_at - min(MAX_SKEW, SKEW_SHARE * self.lifetime)

    def fresh(self, now: float | None = None) -> bool:
        return (time.time() if now is None else now) < self.renew_at

    def to_json(self) -> dict[str, Any]:
        return {"access_token": self.value, "expires_at": self.expires_at, "obtained_at": self.obtained_at}

    @classmethod
    def from_json(cls, data: Any) -> Token | None:
        """A stored token, or None for anything that is not one (a torn or foreign file)."""
        if not isinstance(data, dict):
            return None
        value, expires, obtained = data.get("access_token"), data.get("expires_at"), data.get("obtained_at")
        if not isinstance(value, str) or not value:
            return None
        if not all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in (expires, obtained)):
            return None
        assert isinstance(expires, (int, float)) and isinstance(obtained, (int, float))
        if not (math.isfinite(expires) and math.isfinite(obtained)):
            return None  # a file that says Infinity (Python's JSON reads it): it would be fresh for ever
        return cls(value, float(expires), float(obtained))
