"""What can go wrong with the archive, as types a caller can catch: the
database is out of reach, its schema is newer than this code, a result is
larger than a job may keep. They are ``QlError``s: the CLI and the gateway
answer them with their status and message like any other error."""

from __future__ import annotations

from ..errors import QlError


class ArchiveError(QlError):
    """Any archive failure that is not a bug."""

    status = 500


class ArchiveUnavailable(ArchiveError):
    """The database cannot be reached or its URL is not one we can use. The message
    names the database (host, port, name) but never a password: URLs are shown
    with the password masked, and driver messages have it cut out."""

    status = 503


class SchemaTooNew(ArchiveError):
    """The database was migrated by a newer qlgate. Older code must not write to
    tables whose meaning it does not know, so it refuses to open them at all."""

    def __init__(self, where: str, found: int, known: int):
        super().__init__(
            f"the archive {where} has schema version {found}; this qlgate knows versions up to "
            f"{known}: run a qlgate at least as new as the one that migrated it"
        )
        self.found = found
        self.known = known


class ResultTooLarge(ArchiveError):
    """A result over the archive's ``max_result_bytes`` (config ``jobs.maxResultBytes``)."""
