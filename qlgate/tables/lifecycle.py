"""A table's life as its partner announces it: ``deprecated 'DATE' use 'other.table'``
(still answered; each run that calls it is warned) and ``retired 'DATE'`` (from that
day the partner answers nothing useful, so a run that would call it is refused with a
``TableRetired`` naming the date and the replacement — before any of its statements
sends anything, rather than after half of a script's calls went out). Before its
retirement date a table is only warned about, with the date.

Dates are days in UTC, as the partners announce them (eBay: "decommissioned on
January 6, 2025").
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..errors import QlError

if TYPE_CHECKING:
    from .model import Table


class TableRetired(QlError):
    """HTTP 410: the script calls a table whose API its partner retired."""

    status = 410

    def __init__(self, table: str, date: str, use: str | None):
        instead = f"; use {use} instead" if use else ""
        super().__init__(f"table {table} was retired on {date}: its API no longer answers{instead}", status=410)
        self.details.update({"table": table, "retired": date, **({"use": use} if use else {})})


def today() -> str:
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def check(tables: Iterable[Table], on: str | None = None) -> list[str]:
    """The warnings for the deprecated tables among ``tables``; raises ``TableRetired``
    for the first one retired by ``on`` (YYYY-MM-DD; default today, UTC)."""
    day = on or today()
    warnings = []
    for table in tables:
        retired, deprecated = table.retired, table.deprecated
        if retired is not None and retired.date <= day:
            raise TableRetired(table.name, retired.date, retired.use or (deprecated.use if deprecated else None))
        use = (retired.use if retired else None) or (deprecated.use if deprecated else None)
        instead = f"; use {use}" if use else ""
        if retired is not None:
            warnings.append(f"table {table.name} retires on {retired.date}{instead}")
        elif deprecated is not None:
            warnings.append(f"table {table.name} is deprecated since {deprecated.date}{instead}")
    return warnings
