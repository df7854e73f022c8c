"""``qlgate sandbox``: the emulator as a long-running server."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from qlgate.errors import QlError

from .app import RunningSandbox, Sandbox, load_data, new_control_token
from .state import Marketplace

TOKEN_ENV = "QLGATE_SANDBOX_TOKEN"


def control_token(args: Any) -> tuple[str, str | None]:
    """The control token and where it came from (None: generated here)."""
    given = getattr(args, "control_token", None)
    if given is not None:
        if not given.strip():
            raise QlError("--control-token must not be empty", status=400)
        return given.strip(), "--control-token"
    if os.environ.get(TOKEN_ENV, "").strip():
        return os.environ[TOKEN_ENV].strip(), TOKEN_ENV
    return new_control_token(), None


async def run_sandbox(args: Any) -> int:
    token, source = control_token(args)
    try:
        data = load_data(args.data)
        sandbox = Sandbox(Marketplace(data), latency_ms=args.latency, control_token=token)
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise QlError(f"cannot load emulator data {args.data}: {e}", status=400) from None
    running = await RunningSandbox(sandbox).start(args.host, args.port)
    if args.write_config:  # the control token stays out of it: scripts can read the config
        path = Path(args.write_config)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(running.config(), indent=2) + "\n", encoding="utf-8")
    # one line: the URL, the control token (only when generated here) and the config file
    print(
        f"eBay emulator on {running.base}"
        + (f"; control token {token}" if source is None else f"; control token from {source}")
        + (f"; config written to {args.write_config}" if args.write_config else ""),
        file=sys.stderr,
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await running.stop()
    return 0
