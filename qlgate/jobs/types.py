"""A job's types: the partner APIs its script calls, named after the tables it
touches (``ebay.trading.AddToWatchList`` → ``ebay.trading``)."""

from __future__ import annotations

import re

from ..engine.engine import Compiled, Engine
from ..errors import QlError
from ..routes import tables_used
from ..tables.registry import TableRegistry
from ..trust import Trust
from .model import JobError, type_of_table

_TYPE = re.compile(r"[A-Za-z0-9_.:-]{1,200}\Z")


def check_type(job_type: str) -> str:
    if not _TYPE.match(job_type) or job_type in (".", ".."):
        raise JobError(f"'{job_type}' is not a job type: letters, digits and . _ : - only")
    return job_type


def job_types(engine: Engine, script: str, *, trust: Trust | None = None) -> list[str]:
    """Compile the script (a bad one is refused at submission, with its position)
    and name the partner API of every table it reads or writes."""
    try:
        compiled = engine.compile(script, trust=trust)
    except QlError as error:
        raise JobError(f"the script does not compile: {error}") from None
    return types_of(compiled, engine.tables)


def types_of(compiled: Compiled, tables: TableRegistry) -> list[str]:
    """The partner APIs a compiled script calls; a script that touches no table has
    no type to derive."""
    types = []
    for name in tables_used(compiled.plan.script):
        try:
            table = tables.find(name) if not any(t.name == name for t in compiled.inline) else None
        except QlError as error:   # an ambiguous suffix
            raise JobError(str(error)) from None
        full = table.name if table is not None else name
        types.append(type_of_table(full))
    if not types:
        raise JobError("the script touches no table, so it has no type: name its types")
    return sorted(set(types))
