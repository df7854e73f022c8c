"""ZooKeeper sessions for qlgate's processes: a kazoo client whose I/O thread
waits with one ``poll()`` call.

kazoo's threading handler answers every wait — one before each request it
writes and one per turn of its loop — by building an epoll selector,
registering the sockets, polling and closing it again: four system calls and
a fair amount of Python per wait. A ``poll`` object holds no kernel resource,
so building one per wait is cheap. One client against a local server
(``python bench/zk_client.py``): a read costs about 45% less client CPU and
pipelined reads go 1.7 times as fast. The limiter and every worker talk to
ZooKeeper all the time; their latency follows.
"""

from __future__ import annotations

import select
from typing import Any

from kazoo.client import KazooClient
from kazoo.handlers.threading import SequentialThreadingHandler
from kazoo.handlers.utils import fileobj_to_fd
from kazoo.retry import KazooRetry

from ...config_keys import declared_default

_READABLE = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR
_WRITABLE = select.POLLOUT | select.POLLHUP | select.POLLERR


class PollingHandler(SequentialThreadingHandler):
    """kazoo's threading handler with ``select`` done by a single ``poll()``."""

    def select(
        self, rlist: list[Any], wlist: list[Any], xlist: list[Any], timeout: float | None = None
    ) -> tuple[list[Any], list[Any], list[Any]]:
        wanted: dict[int, list] = {}  # fd → [events, its object]
        for objects, events in ((rlist, select.POLLIN | select.POLLPRI), (wlist, select.POLLOUT)):
            for obj in objects:
                fd = fileobj_to_fd(obj)  # kazoo's own check: a closed socket raises as before
                entry = wanted.setdefault(fd, [0, obj])
                entry[0] |= events
        poller = select.poll()
        for fd, (events, _) in wanted.items():
            poller.register(fd, events)
        ready = poller.poll(None if timeout is None else max(0.0, timeout) * 1000)
        readable, writable = [], []
        for fd, happened in ready:
            events, obj = wanted[fd]
            if events & select.POLLIN and happened & _READABLE:
                readable.append(obj)
            if events & select.POLLOUT and happened & _WRITABLE:
                writable.append(obj)
        return readable, writable, []


RETRY_JITTER = 0.3  # each back-off delay is drawn from ±30 % of its nominal value
RETRY_MAX_DELAY_S = float(declared_default("jobs.retryMaxDelay"))  # config jobs.zookeeper.retryMaxDelay


def bounded_retry(handler, *, max_delay: float, timeout: float, max_tries: int = -1) -> KazooRetry:
    """A retry whose back-off never waits longer than ``max_delay`` (jitter included),
    and never longer than a quarter of the session timeout. kazoo's default grows
    toward an hour: after a 20 s quorum loss a worker slept 20 s between tries and
    lost a session that a try every second would have kept."""
    ceiling = min(max_delay, timeout / 4)
    return KazooRetry(
        max_tries=max_tries,
        delay=min(0.05, ceiling),
        backoff=2,
        max_jitter=RETRY_JITTER,
        max_delay=ceiling / (1 + RETRY_JITTER),
        sleep_func=handler.sleep_func,
    )


def zk_client(
    hosts: str, *, timeout: float = 10.0, retry_max_delay: float = RETRY_MAX_DELAY_S, **options
) -> KazooClient:
    """A (not yet started) kazoo client for ``hosts`` with the polling handler and
    bounded reconnect and command back-off."""
    handler = PollingHandler()
    options.setdefault("connection_retry", bounded_retry(handler, max_delay=retry_max_delay, timeout=timeout))
    options.setdefault(
        "command_retry", bounded_retry(handler, max_delay=retry_max_delay, timeout=timeout, max_tries=20)
    )
    client = KazooClient(hosts, timeout=timeout, handler=handler, **options)
    _note_granted_timeout(client)
    return client


def _note_granted_timeout(client: KazooClient) -> None:
    """Record the session timeout the server granted as ``client.negotiated_timeout``
    (seconds; None before the first session). kazoo keeps it to itself, and it
    differs from the one asked for when the server's bounds say so: a worker's
    lease (``lease.py``) must use the shorter. Hooked where kazoo reads the
    answer to its connect request."""
    client.negotiated_timeout = None
    connection = client._connection
    invoke = connection._invoke

    def invoke_noting_timeout(timeout, request, xid=None):
        answer = invoke(timeout, request, xid)
        granted = getattr(answer[0], "time_out", None) if isinstance(answer, tuple) and answer else None
        if isinstance(granted, int) and granted > 0:
            client.negotiated_timeout = granted / 1000
        return answer

    connection._invoke = invoke_noting_timeout
