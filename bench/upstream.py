"""A loopback upstream for benchmarks, in its own process, cheap enough that
the figures measure the engine rather than the upstream's HTTP framework: a
bare asyncio protocol speaking keep-alive HTTP/1.1.

``GET /fast`` answers at once, ``/search`` with ~6 KB of JSON (ten listings),
``/details`` with one small object; ``?ms=N`` delays any answer by N milliseconds
(a timer, not a sleeping task; ``/slow`` defaults to 20; a negative ``ms`` is no
delay, so ``ms=-N`` makes a request unique without slowing it). ``GET /count``
answers how many requests it has read so far (``/count`` itself not counted):
benches print upstream calls per answered request with it. Prints its port on stdout.

    python bench/upstream.py [--precise] [--tls CERT_CHAIN KEY]

``--precise`` keeps delays to within a few tenths of a millisecond, as a remote
upstream that takes 20 ms would, at the price of a core: its loop never sleeps,
and each turn sends what is due. Left to the loop's timers and to sleeping
between requests, on this VM a "20 ms" answer came anywhere from 19.2 to 22.9 ms
after the request was written (uvloop's timers count whole milliseconds from the
start of a turn, and a vCPU woken from idle took up to 2 ms to read a request);
a fan-out waits for its slowest answer, so that spread was most of what a wave
of requests cost beyond its 20 ms.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import json
import re
import sys
import time
from collections.abc import Callable
from functools import partial


def _response(body: bytes) -> bytes:
    return (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\nConnection: keep-alive\r\n\r\n"
        + body
    )


BODY = json.dumps({"items": [{"id": str(i), "title": f"item {i}", "price": i * 1.5} for i in range(20)]}).encode()
RESPONSE = _response(BODY)
# /search: ten listings, about 6 KB of JSON; /details: one small object
SEARCH = _response(
    json.dumps(
        {
            "items": [
                {
                    "id": str(1000 + i),
                    "title": f"Listing number {i} with a reasonably long title for realism",
                    "price": {"value": 10 + i * 1.25, "currency": "USD"},
                    "seller": {"name": f"seller{i}", "score": 100 + i},
                    "location": "San Jose, CA, USA",
                    "description": "lorem ipsum dolor sit amet " * 12,
                }
                for i in range(10)
            ]
        }
    ).encode()
)
DETAILS = _response(json.dumps({"item": {"id": "1000", "title": "Listing details", "stock": 3}}).encode())
NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
_MS = re.compile(rb"[?&]ms=(\d+)")


class Due:
    """Callbacks run when their time comes, checked on every turn of a loop kept busy."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.heap: list[tuple[float, int, Callable[[], None]]] = []
        self.order = itertools.count()  # equal times run in the order they were asked for
        loop.call_soon(self._turn)

    def call_later(self, delay: float, callback: Callable[[], None]) -> None:
        heapq.heappush(self.heap, (time.monotonic() + delay, next(self.order), callback))

    def _turn(self) -> None:
        heap, now = self.heap, time.monotonic()
        while heap and heap[0][0] <= now:
            heapq.heappop(heap)[2]()
        self.loop.call_soon(self._turn)  # the loop polls without sleeping while a callback is ready


DUE: Due | None = None  # set by --precise
SERVED = 0  # requests read, /count excepted


class Upstream(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.buffer = b""
        self.loop = asyncio.get_running_loop()

    def data_received(self, data: bytes) -> None:
        global SERVED
        self.buffer += data
        while b"\r\n\r\n" in self.buffer:
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            target = head.split(b" ", 2)[1] if head.count(b" ") >= 2 else b"/"
            if target.startswith(b"/count"):
                self.transport.write(_response(str(SERVED).encode()))
                continue
            SERVED += 1
            body = (
                RESPONSE
                if target.startswith((b"/fast", b"/slow"))
                else SEARCH
                if target.startswith(b"/search")
                else DETAILS
                if target.startswith(b"/details")
                else NOT_FOUND
            )
            m = _MS.search(target)
            delay = int(m.group(1)) / 1000 if m else (0.02 if target.startswith(b"/slow") else 0)
            if delay and DUE is not None:
                DUE.call_later(delay, partial(self._reply, body))
            elif delay:
                self.loop.call_later(delay, self._reply, body)
            else:
                self.transport.write(body)

    def _reply(self, body: bytes) -> None:
        if not self.transport.is_closing():
            self.transport.write(body)


async def main() -> None:
    global DUE
    loop = asyncio.get_running_loop()
    args = sys.argv[1:]
    if args[:1] == ["--precise"]:
        DUE, args = Due(loop), args[1:]
    context = None
    if args[:1] == ["--tls"]:
        import ssl

        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args[1], args[2])
    server = await loop.create_server(Upstream, "127.0.0.1", 0, backlog=2048, ssl=context)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    try:
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
