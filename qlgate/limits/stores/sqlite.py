"""Opening a SQLite file that several processes may open at the same moment
(the gateway's ``--workers``, a CLI beside a gateway, two limiters on one host):
the limits' host store, and the job backend's embedded queue and archive, which
keep their tables in the same file."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

BUSY_S = 10.0


def open_database(path: str | Path, schema: str) -> sqlite3.Connection:
    """A connection in WAL mode with ``schema`` in place. Turning WAL on needs the
    file to itself, and SQLite answers "database is locked" at once rather than
    waiting its busy timeout, so a process opening the file while another does
    so tries again until ``BUSY_S`` has passed."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=BUSY_S)
    deadline = time.monotonic() + BUSY_S
    while True:
        try:
            db.execute("pragma journal_mode=wal")
            break
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                db.close()
                raise
            time.sleep(0.02)
    db.executescript(schema)
    return db
