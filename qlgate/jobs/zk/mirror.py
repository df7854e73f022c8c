"""What the limiter master last read of limits, slots in use, live workers,
their assignments and the queue — re-read only where a watch said something
changed.

Reading everything on every wake-up cost the master 20-odd requests and a
1,000-name queue listing per decision, and made it slow to see a freed slot.
The mirror is safe to decide from because it can only over-count: slots and
assignments are created by the master alone (its own grants are counted as
they are sent) and removed by others (a removal is seen once its watch fires).
Watches are on what others change, not on what the master changes itself: every
release touches its types' nodes (``layout.free_slots``) and every queue change
but a grant touches the queue node (``layout.enqueue``), so the master's own
grants do not wake it to list again what it just wrote. A release writes its
news into the type node: when the master saw the version before, the one read
that re-arms the watch tells which slot went, and only after a gap (several
releases between two reads) does it list the slots. A release removes the
run's assignment in the same transaction as its slots, so a slot freed is a
slot freed on its worker too. A mark is cleared before its re-read
is sent, so a change that races the read either lands in it or fires the new
watch. Anything unusual — a new master, a session event, a failed grant, the
periodic audit — marks everything for re-reading.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from kazoo.client import KazooClient
from kazoo.exceptions import NoNodeError

from .layout import Layout, decode, news

LIMITS, RUNNING, WORKERS, QUEUE = "limits", "running", "workers", "queue"
_READ_ORDER = {LIMITS: 0, "slots": 1, "assigned": 2, RUNNING: 3}


class Mirror:
    def __init__(self, client: KazooClient, layout: Layout, wake: Callable[[], None]):
        self.client, self.layout, self._wake = client, layout, wake
        self.limits: dict[str, int] = {}
        self.running: dict[str, set[str]] = {}  # type → run names holding its slots
        self.slots: dict[str, int] = {}  # live worker → its slot count
        self.call_timeouts: dict[str, float] = {}  # live worker → its per-call deadline (jobs.callTimeout)
        self.sessions: dict[str, int] = {}  # live worker → the session its node belongs to
        self.reborn: set[str] = set()  # workers seen back under their name on a new session
        self.assigned: dict[str, set[str]] = {}  # live worker → runs handed to it
        self.queue: list[str] = []  # entry names in run order
        self.queue_listings = 0  # how often the queue was listed afresh
        self._lock = threading.Lock()
        self._dirty: set[tuple[str, str]] = set()
        self._everything = True
        self._watches: dict[tuple[str, str], Callable] = {}
        self._versions: dict[str, int] = {}  # type → version of its node the slots are read up to

    # ------------------------------------------------------------------ marks
    def invalidate(self) -> None:
        """Read everything afresh on the next refresh (safe from any thread: the
        names to re-read are listed by the refreshing thread)."""
        with self._lock:
            self._everything = True

    def _watch(self, key: tuple[str, str]) -> Callable:
        """One callback per watched node, so kazoo keeps one watch per node however often it is re-read."""
        watch = self._watches.get(key)
        if watch is None:

            def watch(_event: object, key: tuple[str, str] = key) -> None:
                with self._lock:
                    self._dirty.add(key)
                self._wake()

            self._watches[key] = watch
        return watch

    def _take(self) -> set[tuple[str, str]]:
        with self._lock:
            dirty, self._dirty = self._dirty, set()
            everything, self._everything = self._everything, False
        if everything:
            self._versions.clear()  # no news taken on trust: every type listed
            dirty.update({(LIMITS, ""), (RUNNING, ""), (WORKERS, ""), (QUEUE, "")})
            dirty.update((LIMITS, t) for t in self.limits)
            dirty.update((RUNNING, t) for t in self.running)
            dirty.update(("assigned", w) for w in self.slots)
        return dirty

    # ------------------------------------------------------------------ reads
    def refresh(self) -> None:
        """Re-read what changed, in pipelined waves (directories, then their nodes)."""
        dirty = self._take()
        if not dirty:
            return
        c, lay = self.client, self.layout
        directories = {
            kind: c.get_children_async(path, watch=self._watch((kind, "")))
            for kind, path in ((LIMITS, lay.limits), (RUNNING, lay.running_root), (WORKERS, lay.workers))
            if (kind, "") in dirty
        }
        if (QUEUE, "") in dirty:
            # the queue node's data changes with every enqueue and every dequeue but ours (layout.enqueue):
            # watched first, so a change after the listing is sure to fire it
            c.get_async(lay.queue, watch=self._watch((QUEUE, "")))
            directories[QUEUE] = c.get_children_async(lay.queue)
        if LIMITS in directories:
            names = set(directories[LIMITS].get())
            self.limits = {t: v for t, v in self.limits.items() if t in names}
            dirty.update((LIMITS, t) for t in names if t not in self.limits)
        if RUNNING in directories:
            names = set(directories[RUNNING].get())
            self.running = {t: v for t, v in self.running.items() if t in names}
            self._versions = {t: v for t, v in self._versions.items() if t in names}
            dirty.update((RUNNING, t) for t in names if t not in self.running)
        if WORKERS in directories:
            live = set(directories[WORKERS].get())
            self.slots = {w: n for w, n in self.slots.items() if w in live}
            self.assigned = {w: v for w, v in self.assigned.items() if w in live}
            # a worker that left and came back under its name may have another slot count
            dirty.update(("slots", w) for w in live)
            dirty.update(("assigned", w) for w in live if w not in self.assigned)
        reads = []
        # sent and taken in this order: a new worker's slot count before its assignments, and
        # assignments before slots in use, so that a release between the two listings is seen
        # in the later one and taken out of the earlier
        for kind, name in sorted(dirty, key=lambda key: _READ_ORDER.get(key[0], 0)):
            if kind == LIMITS and name:
                reads.append((kind, name, c.get_async(lay.limit(name), watch=self._watch((kind, name)))))
            elif kind == RUNNING and name:
                # the type node's data is the news of the last release (layout.free_slots): read
                # with its watch first, so a release after any listing is sure to fire it; listed
                # at once only when we have no version to take news from
                latest = c.get_async(lay.running(name), watch=self._watch((kind, name)))
                listing = c.get_children_async(lay.running(name)) if name not in self._versions else None
                reads.append((kind, name, (latest, listing)))
            elif kind == "slots":
                reads.append((kind, name, c.get_async(lay.worker(name))))
            elif kind == "assigned":  # no watch: only grants add, and a release shows in the slots
                reads.append((kind, name, c.get_children_async(lay.assignments(name))))
        if QUEUE in directories:
            self.queue = sorted(directories[QUEUE].get())
            self.queue_listings += 1
        for kind, name, pending in reads:
            if kind == RUNNING:
                value = pending
            else:
                try:
                    value = pending.get()
                except NoNodeError:
                    value = None
            if kind == LIMITS:
                if value is None:
                    self.limits.pop(name, None)
                else:
                    self.limits[name] = decode(value[0])
            elif kind == RUNNING:
                self._read_running(name, *value)
            elif kind == "slots":
                if value is None:
                    self.slots.pop(name, None)
                    self.assigned.pop(name, None)
                else:
                    info = decode(value[0])
                    self.slots[name] = int(info.get("slots", 1))
                    owner = value[1].ephemeralOwner
                    if self.sessions.get(name, owner) != owner:
                        self.reborn.add(name)  # its runs of the old session are lost
                    self.sessions[name] = owner
                    if "callTimeout" in info:
                        self.call_timeouts[name] = float(info["callTimeout"])
            elif name in self.slots:  # assignments of a live worker
                if value is None:  # its directory is missing: make it, read it next time
                    c.ensure_path(lay.assignments(name))
                    self.invalidate_one(("assigned", name))
                    value = []
                self.assigned[name] = set(value)
            else:
                self.assigned.pop(name, None)

    def _read_running(self, job_type: str, latest, listing) -> None:
        """A type's slots in use: from the news of its last release when we saw the
        version before, else from a listing (sent now if it was not sent already)."""
        try:
            data, stat = latest.get()
        except NoNodeError:
            self.running.pop(job_type, None)
            self._versions.pop(job_type, None)
            return
        message = news(data, stat.version, self._versions.get(job_type))
        if message is not None:
            freed = set(message["freed"])
        else:
            if listing is None:
                listing = self.client.get_children_async(self.layout.running(job_type))
            try:
                listed = set(listing.get())
            except NoNodeError:
                listed = set()
            freed = self.running.get(job_type, set()) - listed
            self.running[job_type] = listed
        self._versions[job_type] = stat.version
        self.running.setdefault(job_type, set()).difference_update(freed)
        for runs in self.assigned.values():  # released: its assignment went with it
            runs.difference_update(freed)

    def invalidate_one(self, key: tuple[str, str]) -> None:
        with self._lock:
            self._dirty.add(key)
        self._wake()

    # ------------------------------------------------------------------ own changes
    def granted(self, entry: str, name: str, types: list[str], worker: str) -> None:
        """A grant of ours was sent: count it now rather than when its watch fires.
        A type or worker not read yet (its first grant just made its directory) is
        read — and watched — at the next refresh, which comes before the next decision
        and, sent after the grant on the same session, sees it."""
        for t in types:
            if t in self.running:
                self.running[t].add(name)
            else:
                self.invalidate_one((RUNNING, t))
        if worker in self.assigned:
            self.assigned[worker].add(name)
        else:
            self.invalidate_one(("assigned", worker))
        try:
            self.queue.remove(entry)
        except ValueError:
            pass

    # ------------------------------------------------------------------ views
    def free_slots(self) -> dict[str, int]:
        return {w: max(0, n - len(self.assigned.get(w, ()))) for w, n in self.slots.items()}

    def slots_used(self) -> dict[str, int]:
        return {t: len(names) for t, names in self.running.items()}
