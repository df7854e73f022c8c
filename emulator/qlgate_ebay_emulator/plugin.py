"""What qlgate finds through the entry point ``qlgate.emulators``/``ebay``
(``qlgate/emulators.py`` says what an emulator offers). Loaded at every start of
``qlgate run`` with an eBay config, so it imports the standard library only: the
aiohttp app and the marketplace are imported when a server is made."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .endpoints import emulator_config

if TYPE_CHECKING:
    from .app import RunningSandbox
    from .lazy import LazyEmulator


class EbayEmulator:
    name = "ebay"

    def config(self, base: str) -> dict[str, Any]:
        """The config that points every eBay table, legacy and REST, at an emulator at ``base``."""
        return emulator_config(base)

    def running(self) -> ServedOrBuilt:
        return ServedOrBuilt()

    def lazy(self, *, host: str = "127.0.0.1", port: int = 0) -> LazyEmulator:
        from .lazy import LazyEmulator

        return LazyEmulator(host, port=port)

    async def serve(self, args: argparse.Namespace) -> int:
        from .cli import run_sandbox

        return await run_sandbox(args)


class ServedOrBuilt:
    """The emulator ready before it listens (``qlgate serve``): the emulator server's copy
    of its built marketplace when one answers (``server.py``), else built here now."""

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> LazyEmulator | RunningSandbox:
        from .lazy import LazyEmulator

        served = LazyEmulator(host, port=port)
        if served.served():
            return served
        served.close()
        from .app import RunningSandbox
        from .server import start_server

        start_server()  # the next gateway is served a built one

        return await RunningSandbox().start(host, port)


EMULATOR = EbayEmulator()
