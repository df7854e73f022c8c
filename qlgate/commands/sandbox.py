"""``qlgate sandbox``: the eBay emulator as a server of its own. Only its command
line is declared here; the emulator — the ``qlgate-ebay-emulator`` distribution,
found by entry point (``qlgate/emulators.py``) — runs it, loaded when the command
runs because it brings its aiohttp app with it. Not installed, the command says
what to install.
"""

from __future__ import annotations

import argparse

from .arguments import number_in

DESCRIPTION = """Run the eBay emulator (the qlgate-ebay-emulator distribution) until SIGTERM or Ctrl-C: a marketplace of
10,000 listings behind eBay's REST APIs (Browse, Taxonomy, Inventory, Fulfillment,
Account, with an OAuth2 token endpoint; the other operations answer 'not emulated')
and the legacy Finding, Shopping and Trading APIs. --write-config writes a config that
points every eBay table, legacy and REST, at it with credentials it accepts; the
/_sandbox/* control endpoints (recorded requests, reset, faults, purchases, token
expiry) need the control token, which is printed at start-up when not given."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=number_in("--port", 0, 65535), default=8642, help="0 picks a free port")
    parser.add_argument("--data", metavar="FILE", help="seed data (users, listings) instead of the built-in set")
    parser.add_argument(
        "--write-config", metavar="FILE", help="write a config pointing every eBay table at this emulator"
    )
    parser.add_argument("--latency", type=int, default=0, metavar="MS", help="delay every answer by MS")
    parser.add_argument(
        "--control-token",
        metavar="TOKEN",
        help="the token the /_sandbox/* control endpoints require (default: "
        "$QLGATE_SANDBOX_TOKEN, else a random one printed at start-up)",
    )


def run(args: argparse.Namespace) -> int:
    from ..emulators import find_emulator
    from ..loop import run as run_coroutine
    from ..server.listen import check_can_listen

    emulator = find_emulator("ebay", wanted_by="qlgate sandbox")
    if args.port:  # a busy port is one line and exit 2, as for serve (0 picks a free one)
        check_can_listen(args.host, args.port)
    return int(run_coroutine(emulator.serve(args)))
