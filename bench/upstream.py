"""A loopback upstream for benchmarks, in its own process, cheap enough that
the figures measure the engine rather than the upstream's HTTP framework: a
bare asyncio protocol speaking keep-alive HTTP/1.1.

``GET /fast`` answers at once; ``GET /slow?ms=N`` after N milliseconds (a
timer, not a sleeping task). Prints its port on stdout.

    python bench/upstream.py
"""

from __future__ import annotations

import asyncio
import json
import re
import sys

BODY = json.dumps({"items": [{"id": str(i), "title": f"item {i}", "price": i * 1.5} for i in range(20)]}).encode()
RESPONSE = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
            + str(len(BODY)).encode() + b"\r\nConnection: keep-alive\r\n\r\n" + BODY)
NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
_MS = re.compile(rb"[?&]ms=(\d+)")


class Upstream(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.buffer = b""
        self.loop = asyncio.get_running_loop()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while b"\r\n\r\n" in self.buffer:
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            target = head.split(b" ", 2)[1] if head.count(b" ") >= 2 else b"/"
            if target.startswith(b"/fast"):
                self.transport.write(RESPONSE)
            elif target.startswith(b"/slow"):
                m = _MS.search(target)
                self.loop.call_later(int(m.group(1)) / 1000 if m else 0.02, self._reply)
            else:
                self.transport.write(NOT_FOUND)

    def _reply(self) -> None:
        if not self.transport.is_closing():
            self.transport.write(RESPONSE)


async def main() -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(Upstream, "127.0.0.1", 0, backlog=2048)
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
