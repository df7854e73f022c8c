"""How a worker hears of new runs and of cancel requests: from a node whose data
is the news of its last change (``layout.news``), so that the one read that
re-arms the watch usually tells what changed and a listing is needed only after
a gap. Its own module because it is the same small protocol for both feeds and
knows nothing of runs: the worker says what to do with the news and how to
catch up (``worker.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kazoo.exceptions import NoNodeError

from .layout import news

if TYPE_CHECKING:
    from .worker import Worker


class Feed:
    """A node whose data is the news of its last change (``layout.news``), read when
    its watch fires: the one read that re-arms the watch brings the news when we
    saw the version before; after a gap, or the first time, ``catch_up`` runs."""

    def __init__(self, worker: Worker, path: str, take: Callable[[dict[str, Any]], None], catch_up: Callable[[], None]):
        self.worker, self.path, self.take, self.catch_up = worker, path, take, catch_up
        self.seen: int | None = None  # the version we have the news up to
        self.unread = True  # the watch fired since the last read

    def fired(self, _event: object = None) -> None:
        self.unread = True
        self.worker._wake.set()

    def forget(self) -> None:
        """Catch up on the next read (a new session, a failure, now and then)."""
        self.seen = None

    def due(self) -> bool:
        return self.unread or self.seen is None

    def read(self) -> None:
        client = self.worker.client
        self.unread = False  # cleared before the read: news landing meanwhile fires again
        try:
            data, stat = client.get(self.path, watch=self.fired)
        except NoNodeError:
            client.ensure_path(self.path)  # made again; read on the next turn
            self.seen = None
            self.worker._wake.set()
            return
        message = news(data, stat.version, self.seen)
        if message is not None:
            self.take(message)
        else:
            self.catch_up()
        self.seen = stat.version
