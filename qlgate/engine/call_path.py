"""The call path of each kind of upstream call, composed once: only the steps that
apply (``call_steps.py``), folded into one coroutine function that a table call
hands each of its requests to. What decides the composition is known before the
first call — the statement's kind, its table's owner, the run's trust, the
engine's limits — so nothing of it is decided again per call, and a call that
needs no single flight, no limits or no back-off goes through no step for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .call_steps import Guarded, Recorded, Shared, Step

if TYPE_CHECKING:
    from ..cache.responses import ResponseCache
    from ..http.client import HttpClient
    from ..limits.api_types import ApiTypes
    from ..limits.gate import CallLimits
    from .backoff import BackoffBoard, Delays

# (shares, waits, counts, gated, own_types, delays): what a composition depends on
PathKey = tuple[bool, bool, bool, bool, bool, "Delays"]


class CallPaths:
    """An engine's call paths, one per kind of call, composed when first needed."""

    def __init__(
        self,
        http: Callable[[], HttpClient],
        cache: ResponseCache,
        board: BackoffBoard,
        limits: CallLimits | None,
        api_types: ApiTypes,
    ):
        """``http``: the engine's client, made by the first call that needs it (a
        script that calls nothing imports no HTTP client)."""
        self._http, self._cache, self._board = http, cache, board
        self._limits, self._api_types = limits, api_types
        self._paths: dict[PathKey, Step] = {}

    def path(self, *, shares: bool, waits: bool, counts: bool, gated: bool, own_types: bool, delays: Delays) -> Step:
        """The composed path of calls that

        - ``shares``: are reads, made once for identical reads in flight (and cached
          where their table or statement says ``expires``);
        - ``waits``: wait out their table's back-off (not a caller's own table's);
        - ``counts``: count their outcomes for it (a deployer's run's calls only);
        - ``gated``: wait for a job's lease;
        - ``own_types``: are a caller's own table's, limited as the deployer's tables
          that call the same host;
        - ``delays``: the statement's ``minDelay``/``maxDelay`` for its back-off."""
        key: PathKey = (shares, waits, counts, gated, own_types, delays)
        path = self._paths.get(key)
        if path is None:
            path = self._paths[key] = self._compose(*key)
        return path

    def _compose(self, shares: bool, waits: bool, counts: bool, gated: bool, own_types: bool, delays: Delays) -> Step:
        board, limits = self._board, self._limits
        step: Step = Recorded(self._http(), board if counts else None).send
        if waits or gated or limits is not None or board.settings.retry_after_max_ms:
            step = Guarded(
                step,
                board=board,
                waits=waits,
                delays=delays,
                limits=limits,
                own_types=own_types,
                api_types=self._api_types,
            ).send
        if shares:
            step = Shared(step, self._cache).send
        return step
