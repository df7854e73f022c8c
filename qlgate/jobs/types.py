"""A job's types: the partner APIs its script calls, named after the tables it
touches (``ebay.trading.AddToWatchList`` → ``ebay.trading``). Deriving them
compiles the script, so this module needs the engine; checking a type's name
does not, and lives in ``model`` (re-exported here for older imports)."""

from __future__ import annotations

from ..engine.engine import Compiled, Engine
from ..errors import QlError
from ..limits.api_types import ApiTypes
from ..routes import tables_used
from ..tables.model import Table
from ..tables.registry import TableRegistry
from ..trust import Trust, fixed_origin
from .model import JobError


class NoTable(JobError):
    """A script that calls no table: its types must be named."""


def job_types(engine: Engine, script: str, *, trust: Trust | None = None) -> list[str]:
    """Compile the script (a bad one is refused at submission, with its position)
    and name the partner API of every table it reads or writes."""
    try:
        compiled = engine.compile(script, trust=trust)
    except QlError as error:
        raise JobError(f"the script does not compile: {error}") from None
    return types_of(compiled, engine.tables, engine.api_types)


def types_of(compiled: Compiled, tables: TableRegistry, api_types: ApiTypes | None = None) -> list[str]:
    """The partner APIs a compiled script calls; a script that touches no table has
    no type to derive. A caller's own (inline) table counts as the partner APIs whose
    tables call the same host, so that it cannot walk around their limits; its host
    must then be written out. ``api_types``: the deployment's (config ``limits.types``)."""
    api_types = api_types or ApiTypes()
    type_of = api_types.of
    inline = {t.name: t for t in compiled.inline}
    types: list[str] = []
    for name in tables_used(compiled.plan.script):
        if name in inline:
            types.extend(_types_of_inline(inline[name], tables, api_types))
            continue
        try:
            table = tables.find(name)
        except QlError as error:  # an ambiguous suffix
            raise JobError(str(error)) from None
        types.append(type_of(table.name if table is not None else name))
    if not types:
        raise NoTable("the script touches no table, so it has no type: name its types")
    return sorted(set(types))


def _types_of_inline(table: Table, tables: TableRegistry, api_types: ApiTypes) -> list[str]:
    if not table.by_caller:
        return [api_types.of(table.name)]
    found: set[str] = set()
    for mapping in table.mappings.values():
        origin = fixed_origin(mapping.uri.raw)
        if origin is None:
            raise JobError(
                f"the job's table {table.name} builds its host from values: a job's own table "
                "must write out the host it calls"
            )
        found |= set(api_types.of_origin(origin, tables))  # as each of its calls will count
    return sorted(found) or [api_types.of(table.name)]
