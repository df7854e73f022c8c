"""The contracts between the executor's parts, so each can be read (and tested)
without the others.

``RunContext`` is what a statement needs from the run that executes it: scope
lookups, the budget it builds values against, the call path its requests take. The
statement modules are typed against it, not against ``Run``, so they import no
part of the executor and the executor is free to change how it keeps state.
``EngineServices`` is what a run takes from the engine that starts it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..config import Config, Secrets, Settings
from ..lang import ast
from ..lang.templates import Template
from ..limits.api_types import ApiTypes
from ..limits.gate import CallLimits
from ..request_info import RequestInfo
from ..tables.files import CodeDirs
from ..tables.registry import TableRegistry
from ..trust import Trust
from .backoff import BackoffBoard, Delays

if TYPE_CHECKING:  # annotations only: routes are loaded by the engine, a run only lists them
    from ..cache.responses import ResponseCache
    from ..http.client import HttpClient
    from ..routes import Route
    from ..tables.model import Table
    from .call import RunCalls
    from .call_path import CallPaths
    from .call_steps import Step


class Credentials(Protocol):
    """The OAuth2 access tokens of config ``auth`` entries (``qlgate.oauth.manager``)."""

    async def access_token(self, name: str) -> str:
        """A token for entry ``name`` good for a while yet (fetched once for all who wait)."""

    async def renew(self, name: str, rejected: str) -> str:
        """A token to retry with after an upstream refused ``rejected``."""

    def current(self, name: str) -> str | None:
        """The token last handed out for ``name``; None before the first."""


class RunContext(Protocol):
    """What one statement may use of the run executing it."""

    @property
    def config(self) -> Config: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def secrets(self) -> Secrets: ...
    @property
    def trust(self) -> Trust: ...
    @property
    def tables(self) -> TableRegistry: ...
    @property
    def routes(self) -> Sequence[Route]: ...
    @property
    def request(self) -> RequestInfo | None: ...
    @property
    def request_id(self) -> str | None: ...
    @property
    def vars(self) -> dict[str, Any]: ...
    @property
    def credentials(self) -> Credentials: ...
    @property
    def shares_answers(self) -> bool:
        """May its reads take a tree decoded for another run's identical call in flight?"""

    # ---- scope (spec §5.2)
    def lookup(self, name: str) -> Any:
        """A name's value: script variables, the request, then config; MISSING if none."""

    def is_variable(self, name: str) -> bool:
        """Does a name in ``from``/``into`` or a bare path stand for a variable (else a table)?"""

    def readonly_vars(self) -> Mapping[str, Any]:
        """The script's variables as hooks and UDFs may see them."""

    def module_dirs(self, extra: list[Path]) -> CodeDirs:
        """Where ``require()`` finds modules."""

    # ---- building values, counted against the run's budget
    def fill(self, value: Any) -> Any:
        """A JSON literal with every template in it interpolated."""

    def text(self, template: Template) -> str:
        """Quoted text interpolated as text."""

    def interpolate(self, template: Template) -> Any:
        """Quoted text interpolated; a whole token keeps its type."""

    def spend(self, units: int, what: str) -> None:
        """Count work the script can multiply; raises past config ``scriptBudget``."""

    def note_size(self, value: Any, size: int) -> None:
        """Remember what a value weighs, when that is known cheaply."""

    def warn(self, message: str) -> None:
        """A warning for the run's result and the log."""

    # ---- what a statement asks the run to do for it
    @property
    def calls(self) -> RunCalls:
        """The run's side of its upstream calls (diagnostics, deadlines, answer budget)."""

    def call_path(self, table: Table, kind: str, delays: Delays) -> Step:
        """The composed path ``table``'s calls of ``kind`` take (``call_path.py``)."""

    async def select(self, stmt: ast.Select) -> Any:
        """A nested select (``x in (select …)``), evaluated like a statement of its own."""


class EngineServices(Protocol):
    """What a run takes from the engine that starts it."""

    @property
    def config(self) -> Config: ...
    @property
    def http(self) -> HttpClient: ...
    @property
    def routes(self) -> Sequence[Route]: ...
    @property
    def credentials(self) -> Credentials: ...
    @property
    def responses(self) -> ResponseCache: ...
    @property
    def backoff(self) -> BackoffBoard: ...
    @property
    def limits(self) -> CallLimits | None: ...
    @property
    def api_types(self) -> ApiTypes: ...
    @property
    def call_paths(self) -> CallPaths: ...

    def script_dirs(self, base_dir: Path | None, extra: list[Path]) -> CodeDirs:
        """Where a deployer's script finds the files it names."""
