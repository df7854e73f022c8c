"""What a long load of a tables tree says while it runs.

Compiling a tables tree of 500 files takes about a second on a quiet machine, and
ten or more on a loaded one or on the first run (Python's byte code, the table
index and Jinja's caches all written then): ``qlgate serve`` once printed nothing
for 16.8 s. A load that has taken more than ``FIRST_S`` says how far it is, every
``EVERY_S``, and how long it took at the end; a quick one says nothing. The lines go
to the logger ``qlgate.tables.progress`` (``qlgate serve`` prints its INFO records,
``qlgate run`` prints them at a terminal).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("qlgate.tables.progress")

FIRST_S = 1.0  # a load quicker than this says nothing
EVERY_S = 2.0


class LoadProgress:
    """Called with the number of files done after each one; ``finished()`` at the end."""

    def __init__(self, root: Path, total: int, *, indexing: bool, clock: Callable[[], float] = time.monotonic):
        self.root = root
        self.total = total
        self.indexing = indexing
        self.clock = clock
        self.began = clock()
        self.due = self.began + FIRST_S
        self.said = False

    def __call__(self, done: int) -> None:
        now = self.clock()
        if now < self.due:
            return
        self.due = now + EVERY_S
        self.said = True
        why = " (building the table index; later starts read it)" if self.indexing else ""
        log.info("loading tables: %d of %d files under %s%s", done, self.total, self.root, why)

    def finished(self) -> None:
        if self.said:
            log.info("loaded %d table files under %s in %.1f s", self.total, self.root, self.clock() - self.began)
