"""Running ``qlgate`` as a user does: piped (``subprocess``) or at a terminal (a
pty, so that ``isatty`` is true for stdout and stderr alike)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def environment(**extra: str) -> dict[str, str]:
    """This checkout's package first, whatever an installed one points at."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{path}" if path else str(ROOT), **extra}


def piped(*args: str, stdin: str = "", cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "qlgate", *args],
        input=stdin,
        cwd=cwd,
        env=environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def at_terminal(*args: str, timeout: float = 60, **env: str) -> tuple[int, str]:
    """Run at a pseudo-terminal (stdout and stderr both): the exit status and all it wrote."""
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", *args],
        stdin=subprocess.DEVNULL,
        stdout=child,
        stderr=child,
        env=environment(**{"TERM": "xterm", "COLUMNS": "100", **env}),
    )
    os.close(child)
    out = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                data = os.read(main, 65536)
            except OSError:  # EIO: the child side is closed
                break
            if not data:
                break
            out += data
        return proc.wait(timeout=max(1.0, deadline - time.monotonic())), out.decode("utf-8", "replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
