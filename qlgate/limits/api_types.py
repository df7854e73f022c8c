"""Which partner API a table's calls count against — its *API type*, the name
limits and call rates are set for (``ebay.trading``, ``ebay.browse``).

Declared once per deployment in config ``limits.types``: table-name prefixes
to type names, the longest matching prefix winning::

    "limits": {"types": {"ebay.buy.browse": "ebay.browse", "ebay.sell": "ebay.sell"}}

A table no prefix matches counts against its name without the last part
(``ebay.trading.AddToWatchList`` → ``ebay.trading``), as jobs always did.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..config_values import ConfigView
from ..errors import ConfigError
from ..trust import fixed_origin
from .errors import JobError


class ApiTypes:
    def __init__(self, prefixes: Mapping[str, str] | None = None):
        self.prefixes = dict(prefixes or {})
        for prefix, api_type in self.prefixes.items():
            if not isinstance(api_type, str) or not isinstance(prefix, str) or not prefix:
                raise ConfigError(f"limits.types maps table-name prefixes to type names, not {prefix!r}: {api_type!r}")
            try:
                check_type(api_type)
            except JobError as error:
                raise ConfigError(f"config limits.types.{prefix}: {error}") from None
        # longest first: "ebay.buy.browse" before "ebay.buy"
        self._ordered = sorted(self.prefixes.items(), key=lambda item: -len(item[0]))
        self.of = lru_cache(maxsize=4096)(self._of)
        self._origins: tuple[object, dict[str, tuple[str, ...]]] | None = None

    @classmethod
    def from_config(cls, data: Mapping | ConfigView) -> ApiTypes:
        """Config ``limits.types``, read through its declaration (``config_keys``)."""
        view = data if isinstance(data, ConfigView) else ConfigView(data)
        return cls(view.entries("limits.types"))

    def _of(self, table: str) -> str:
        """The API type of the table named ``table``."""
        for prefix, api_type in self._ordered:
            if table == prefix or table.startswith(prefix + "."):
                return api_type
        return type_of_table(table)

    def of_origin(self, origin: str | None, tables: Any) -> tuple[str, ...]:
        """The API types of the tables of ``tables`` (a registry) that call ``origin``
        (``host:port``): what a caller's own table calling that host counts against.
        None of them: no type — its name is the caller's choice, not an API's."""
        if origin is None:
            return ()
        cached = self._origins
        if cached is None or cached[0] is not tables:
            found: dict[str, set[str]] = {}
            for table in tables.tables():
                for mapping in table.mappings.values():
                    if (fixed := fixed_origin(mapping.uri.raw)) is not None:
                        found.setdefault(fixed, set()).add(self.of(table.name))
            cached = self._origins = (tables, {o: tuple(sorted(t)) for o, t in found.items()})
        return cached[1].get(origin, ())


_TYPE = re.compile(r"[A-Za-z0-9_.:-]{1,200}\Z")


def check_type(job_type: str) -> str:
    """An API type (a job's type) as it may be named: it becomes a ZooKeeper node name and a queue
    key's suffix, so no ``/``, no ``+`` nor ``~`` (``queue_key`` joins types with
    them), and neither ``.`` nor ``..``. Here, with the limits
    kept per type, rather than with the jobs: checking a name needs no job backend."""
    if not _TYPE.match(job_type) or job_type in (".", ".."):
        raise JobError(f"'{job_type}' is not a job type: letters, digits and . _ : - only")
    return job_type


def type_of_table(table_name: str) -> str:
    """The partner API a table belongs to: its name without the last part
    (``ebay.trading.AddToWatchList`` → ``ebay.trading``)."""
    head, dot, _ = table_name.rpartition(".")
    return head if dot else table_name
