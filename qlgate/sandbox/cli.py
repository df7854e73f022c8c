"""``qlgate sandbox``: the emulator as a long-running server."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path
from typing import Any

from ..errors import QlError
from .app import RunningSandbox, Sandbox, load_data
from .state import Marketplace


async def run_sandbox(args: Any) -> int:
    try:
        data = load_data(args.data)
        sandbox = Sandbox(Marketplace(data), latency_ms=args.latency)
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise QlError(f"cannot load emulator data {args.data}: {e}", status=400) from None
    running = await RunningSandbox(sandbox).start(args.host, args.port)
    if args.write_config:
        path = Path(args.write_config)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(running.config(), indent=2) + "\n", encoding="utf-8")
    print(f"eBay emulator on {running.base}" + (f"; config written to {args.write_config}" if args.write_config
                                                else ""), file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await running.stop()
    return 0
