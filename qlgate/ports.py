"""A free TCP port, for a process this one starts and then points at (the
shared eBay emulator of ``serve --workers N``). The port is free when asked; the
caller binds it soon after, and a port taken in between fails that bind loudly.
"""

from __future__ import annotations

import socket


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on at ``host`` now: the kernel's pick for port 0."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port
