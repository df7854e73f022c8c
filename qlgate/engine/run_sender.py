"""The sender a run's upstream calls go through, made for the run when it first
calls anything, and the rules that make it a caller's: a caller's calls are
checked against the host allow-list, never count failures against a deployer's
table, and count against the limits of the deployer's tables that call the
same host (never of a type a caller's table name would choose)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from ..errors import QlError
from ..trust import url_origin

if TYPE_CHECKING:
    from .run import Run
    from .sending import Sender


def sender_of(run: Run) -> Sender:
    """The sender of ``run``'s calls, with its options and the engine's shared parts."""
    engine, trust, tables = run.engine, run.trust, run.tables
    callers_own = trust.is_caller and tables.parent is not None  # a caller's script with tables of its own

    def callers_table(name: str) -> bool:
        """Is ``name`` a table the caller's script defined (kept off the back-off board)?"""
        try:
            table = tables.find(name)
        except QlError:
            return True
        return table is None or table.by_caller

    def limit_types(name: str, url: str) -> Sequence[str] | None:
        """A caller's own table counts against the API types of the deployer's tables
        that call the same host — never against a type its name would choose, which the
        caller could pick to walk around a limit or to spend another API's quota."""
        if not callers_table(name):
            return None
        deployers = tables.parent if tables.parent is not None else tables
        return engine.api_types.of_origin(url_origin(url), deployers)

    return _sender_type()(
        engine.http,
        run.diagnostics,
        run.secrets,
        run.options,
        # a caller's calls are checked against the host allow-list (redirects too)
        upstream_check=trust.check_url if trust.allowed_hosts is not None else None,
        cache=engine.responses,
        backoff=engine.backoff,
        counts=not trust.is_caller,
        unboarded=callers_table if callers_own else None,
        limits=engine.limits,
        limit_types=limit_types if callers_own else None,
    )


@cache
def _sender_type() -> type[Sender]:
    """``Sender``, imported by the first run that calls anything (so ``qlgate run -e
    'return 1;'`` imports no HTTP client); once, not per run (an import statement
    costs about a microsecond even when the module is loaded)."""
    from .sending import Sender

    return Sender
