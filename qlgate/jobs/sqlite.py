"""The ``where`` clause the job backend's SQLite tables (the embedded queue, the
archive) pick jobs by; the files themselves are opened with
``qlgate.limits.stores.sqlite.open_database``, which the limits' host store
shares."""

from __future__ import annotations


def job_filter(state: str | None, owner: str | None) -> tuple[str, tuple]:
    """The ``where`` clause (or "") and its parameters that pick jobs by state and by
    the API key that submitted them; a job's record is JSON, its owner inside it."""
    where, params = [], []
    if state is not None:
        where.append("state = ?")
        params.append(state)
    if owner is not None:
        where.append("json_extract(record, '$.owner') = ?")
        params.append(owner)
    return ("where " + " and ".join(where)) if where else "", tuple(params)
