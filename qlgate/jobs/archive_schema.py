"""The archive's tables, created and changed by qlgate itself rather than by an
operator's script: per dialect a list of migrations, each a few statements,
applied in order. The table ``qlgate_schema`` holds one row per version applied,
so a database tells which code may use it; the dialects' stores apply the
missing versions in one transaction under a lock, so processes that open a
database at the same moment migrate it once.

Migrations are only ever appended: a released version's statements never change.
"""

from __future__ import annotations

from .archive_errors import SchemaTooNew

STATEMENT_TIMEOUT_S = 60.0  # PostgreSQL: the longest one statement may take (a 64 MB result on ~10 Mbit/s)

Migration = tuple[str, ...]
JobRow = tuple[int, str, str | None, float | None, str]  # what a store keeps of a job: id, state, owner, ended, record

VERSION_TABLE = "qlgate_schema"

SQLITE: tuple[Migration, ...] = (
    # 1: the archive as it was before it had a version table. A file of that time has these
    #    already, so for it this migration changes nothing and just records version 1
    (
        (
            "create table if not exists archived_jobs (id integer primary key, state text not null, ended real,"
            " record text not null)"
        ),
        "create index if not exists archived_by_state on archived_jobs (state, id)",
    ),
    # 2: results, written by the worker that ran the job; the owner filter (sqlite.job_filter reads
    #    the owner out of the record) gets an index on that very expression. No column is added to
    #    archived_jobs: a limiter of the previous release writes rows of four values into it
    (
        "create index archived_by_owner on archived_jobs (json_extract(record, '$.owner'), id)",
        # a rowid table: results are large, and a table without rowid keeps rows inside the index's pages
        (
            "create table archived_results (job_id integer not null, run integer not null, data blob not null,"
            " primary key (job_id, run))"
        ),
    ),
)

POSTGRESQL: tuple[Migration, ...] = (
    # 1: the job's record stays text, not jsonb: jsonb refuses \u0000 and lone surrogates, which
    #    a record may carry as escapes; state and owner are columns so filters use indexes
    (
        (
            "create table archived_jobs (id bigint primary key, state text not null, owner text,"
            " ended double precision, record text not null)"
        ),
        "create index archived_by_state on archived_jobs (state, id)",
        "create index archived_by_owner on archived_jobs (owner, id)",
        (
            "create table archived_results (job_id bigint not null, run bigint not null, data bytea not null,"
            " primary key (job_id, run))"
        ),
    ),
)

MIGRATIONS: dict[str, tuple[Migration, ...]] = {"sqlite": SQLITE, "postgresql": POSTGRESQL}


def pending(dialect: str, applied: list[int], where: str) -> list[tuple[int, Migration]]:
    """The migrations a database at versions ``applied`` still needs, oldest first;
    ``SchemaTooNew`` if a newer qlgate has been there."""
    migrations = MIGRATIONS[dialect]
    current = max(applied, default=0)
    if current > len(migrations):
        raise SchemaTooNew(where, current, len(migrations))
    return [(version, migrations[version - 1]) for version in range(current + 1, len(migrations) + 1)]
