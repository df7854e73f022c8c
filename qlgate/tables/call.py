"""One statement's call to one table mapping, as the tables side sees it: which
mapping answers the verb, and the patch hooks of the call with the ``ctx`` each
is handed (spec §11.2).

Building the requests (``request.py``) and reading the answers (``response.py``)
both call hooks; both take a ``CallHooks`` rather than the engine's run, so the
tables side can be driven — and tested — without an engine.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from collections.abc import Mapping as MappingType
from typing import Any

from ..errors import AuthRejected, UnsupportedVerb
from .model import Mapping, Table
from .params import ParamView
from .patches import HookContext


def mapping_for(table: Table, kind: str) -> Mapping:
    """The mapping of ``table`` that answers ``kind`` (select, insert, update,
    delete); a typed error when there is none or it needs a connector not installed."""
    mapping = table.mappings.get(kind)
    if mapping is None:
        raise UnsupportedVerb(f"Table {table.name} does not support {kind}")
    if table.connector not in (None, "http") or mapping.method == "do":
        raise UnsupportedVerb(
            f"Table {table.name} uses the connector '{table.connector or mapping.operation}', "
            "which is not installed; only HTTP tables run"
        )
    return mapping


class CallHooks:
    """The hooks of one call: the mapping's patch, called with a ``ctx`` that holds
    the table, the statement, the parameters, config, the script's variables
    (read-only), the incoming request, a ``log`` and ``access_token``.

    ``tokens``: where OAuth2 access tokens come from (the engine's token manager);
    ``credentials_used`` names every credential a request of this call carried a
    token of, so the call knows what to renew when an upstream refuses one."""

    def __init__(
        self,
        table: Table,
        mapping: Mapping,
        statement: Any,
        *,
        limit: int | None = None,
        offset: int | None = None,
        config: Any = None,
        variables: MappingType[str, Any] | None = None,
        request: Any = None,
        warn: Callable[[str], None] | None = None,
        tokens: Callable[[str], Awaitable[str]] | None = None,
    ):
        self.table, self.mapping, self.patch = table, mapping, mapping.patch
        self.statement, self.limit, self.offset = statement, limit, offset
        self.config = config
        self.variables = variables if variables is not None else {}
        self.request = request
        self._warn = warn
        self._tokens = tokens
        self.credentials_used: set[str] = set()

    def has(self, hook: str) -> bool:
        return self.patch is not None and self.patch.has(hook)

    def statement_info(self) -> StatementInfo:
        """``ctx.statement``: made anew for each hook, so what one hook writes on it
        does not reach the next."""
        return StatementInfo(self.statement, self.limit, self.offset)

    def context(self, view: ParamView, **extra: Any) -> HookContext:
        return HookContext(
            table=self.mapping,
            statement=self.statement_info(),
            params=view,
            config=self.config,
            vars=self.variables,
            request=self.request,
            log=self.log,
            access_token=self.access_token,
            **extra,
        )

    async def access_token(self, name: str) -> str:
        """``ctx.access_token(name)``: an OAuth2 access token of the config ``auth``
        entry ``name`` (what ``using auth 'name'`` sends as ``Authorization: Bearer``)."""
        if self._tokens is None:
            raise AuthRejected(f"{self.table.name}: no OAuth2 credentials here (auth entry '{name}')")
        self.credentials_used.add(name)
        return await self._tokens(name)

    def log(self, level: str, message: str) -> None:
        """``ctx.log``: warnings and errors join the run's warnings."""
        if level in ("warn", "warning", "error") and self._warn is not None:
            self._warn(message)

    async def call(self, hook: str, view: ParamView, **extra: Any) -> Any:
        """The hook's answer; None when the patch does not define it."""
        if self.patch is None or not self.patch.has(hook):
            return None
        return await self.patch.call(hook, self.context(view, **extra), table=self.table.name)

    async def authenticate(self, view: ParamView) -> bool:
        """The mapping's ``auth using`` module, if any: may this request go out?"""
        auth = self.mapping.auth
        if auth is None:
            return True
        return bool(await auth.call("auth", self.context(view), table=self.table.name))


class StatementInfo:
    """``ctx.statement``: the executing statement as hooks see it."""

    def __init__(self, statement: Any, limit: int | None, offset: int | None):
        self.type = type(statement).__name__.lower() if statement is not None else None
        pos = getattr(statement, "pos", None)
        self.line = pos.line if pos else None
        self.limit = limit
        self.offset = offset
        tuning = getattr(statement, "tuning", None)
        self.timeout = tuning.timeout if tuning else None
        columns = getattr(statement, "columns", None)
        if columns is None:
            self.columns: Any = "*"
        else:
            self.columns = [
                {"name": c, "alias": None}
                if isinstance(c, str)
                else {"name": str(c.path) if c.path else f"{c.udf.module}.{c.udf.function}", "alias": c.alias}
                for c in columns
            ]
        self.where = list(getattr(statement, "where", ()) or ())
        self.assign = None
        self.text = getattr(statement, "text", "")

    def __repr__(self) -> str:
        return f"<statement {self.type} line {self.line}>"
