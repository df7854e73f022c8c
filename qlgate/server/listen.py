"""Can ``qlgate serve`` listen where it was told to? Asked before anything is
loaded, so that a port already taken (another gateway, a forgotten ``qlgate
serve &``) is one clear line and a usage exit — not an ``internal error`` after
half a second of loading tables, nor a worker's traceback.

The answer is a trial bind of every address ``--host`` resolves to, with the
options the gateway's own socket will have (``SO_REUSEADDR``, so a port in
TIME_WAIT is free; never ``SO_REUSEPORT``, so a port shared by another group
of processes counts as taken). Between this check and the real bind another
process may still take the port: ``bind_failure`` words that bind's error the
same way.

Standard library only, as the command's start-up wants.
"""

from __future__ import annotations

import errno
import socket

from ..commands.arguments import UsageError


class CannotListen(UsageError):
    """The gateway cannot listen at ``--host``/``--port``: the caller's choice to change."""


def check_can_listen(host: str, port: int) -> None:
    """Raise ``CannotListen`` unless a socket can be bound at every address of ``host`` on ``port``."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise CannotListen(f"cannot listen on {host}: {reason}; choose another with --host") from None
    for family, kind, proto, _, address in addresses:
        try:
            probe = socket.socket(family, kind, proto)
        except OSError:  # an address family this machine lacks (IPv6 off): the server skips it too
            continue
        with probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as error:
                raise bind_failure(error, host, port) from None


def bind_failure(error: OSError, host: str, port: int) -> CannotListen:
    """The one line a failed bind of ``host``:``port`` is reported with."""
    reason = error.strerror or str(error)
    if error.errno == errno.EADDRINUSE:
        return CannotListen(f"port {port} on {host} is in use: {reason}; choose another with --port")
    if error.errno == errno.EACCES:
        return CannotListen(
            f"port {port} on {host} is not open to this user: {reason}; choose one from 1024 up with --port"
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return CannotListen(f"{host} is not an address of this machine: {reason}; choose another with --host")
    return CannotListen(f"cannot listen on {host} port {port}: {reason}")


def is_bind_failure(error: BaseException) -> bool:
    """Is ``error`` a socket that could not be bound (rather than a bug)?"""
    return isinstance(error, OSError) and error.errno in (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL)
