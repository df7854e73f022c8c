"""The emulator server: a marketplace built once, and a fresh copy of it for every
``qlgate run`` that calls eBay.

Building the emulator takes most of a second (aiohttp, the 10,000 generated listings
and their search index), and ``qlgate run`` used to pay it on its first eBay call:
a 2.9 s "upstream call" under load. The emulator server builds it once and waits on
a Unix socket in a private directory (``$XDG_RUNTIME_DIR/qlgate`` or
``/tmp/qlgate-<uid>``, mode 0700, named after a fingerprint of this package's files so
that a changed emulator never serves an old marketplace). A run hands it the listening
socket its emulator address was reserved on (``lazy.py``); the server forks, and the
child serves that socket with the marketplace as it was built, copied by the fork, so
no run sees what another did, until the run's end closes the Unix connection. The
server answers only its own user (``SO_PEERCRED``), and ends after ``IDLE_S`` without
a run. The first run that calls the emulator starts it in the background and builds its own
emulator meanwhile, as before (a run that calls no eBay table starts nothing);
``QLGATE_EMULATOR_SERVER=off`` turns it off.

    python -m qlgate_ebay_emulator.server SOCKET_PATH     (started by lazy.py)
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

IDLE_S = 900.0  # a server with no run for this long ends
REFRESH_S = 600.0  # its marketplace is built again when this old (the listings' times follow the clock)
READY_S = 2.0  # how long a run waits for the server's child to serve its socket
PACKAGE = Path(__file__).resolve().parent
OFF_VALUES = ("0", "off", "no", "false")


def enabled() -> bool:
    """On unless ``QLGATE_EMULATOR_SERVER=off``; Linux only (``SO_PEERCRED`` says who connects)."""
    if not sys.platform.startswith("linux") or not hasattr(socket, "SO_PEERCRED"):
        return False
    return os.environ.get("QLGATE_EMULATOR_SERVER", "").strip().lower() not in OFF_VALUES


def fingerprint() -> str:
    """This emulator's files (name, size, mtime) and the Python installation that runs it."""
    digest = hashlib.sha256(f"{sys.prefix}:{sys.version}".encode())
    for path in sorted(PACKAGE.glob("*.py")) + sorted(PACKAGE.glob("*.json")):
        stat = path.stat()
        digest.update(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()[:16]


def private_dir() -> Path | None:
    """The user's directory for the server's socket: created 0700, or None when it is
    not the user's own and private (then no server is used)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    where = Path(runtime) / "qlgate" if runtime else Path(tempfile.gettempdir()) / f"qlgate-{os.getuid()}"
    try:
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        stat = os.lstat(where)
    except OSError:
        return None
    if stat.st_uid != os.getuid() or stat.st_mode & 0o077 or not os.path.isdir(where) or where.is_symlink():
        return None
    return where


MOST_PATH = 100  # a Unix socket's path has room for 107 bytes; the server binds it with a suffix first


def socket_path() -> Path | None:
    """Where this emulator's server listens; None where there is none to be had."""
    where = private_dir()
    path = None if where is None else where / f"emulator-{fingerprint()}.sock"
    return path if path is not None and len(os.fsencode(path)) <= MOST_PATH else None


# ------------------------------------------------------------------ the run's side


def hand_over(listening: socket.socket, control_token: str) -> socket.socket | None:
    """Have the server serve ``listening``: the connection to keep open while it should
    (closing it ends the serving child), or None when no server answered (``lazy.py``
    starts one for the next run when this one turns out to call the emulator)."""
    if not enabled():
        return None
    path = socket_path()
    if path is None:
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(READY_S)
    try:
        conn.connect(str(path))
        socket.send_fds(conn, [json.dumps({"token": control_token}).encode() + b"\n"], [listening.fileno()])
        if conn.recv(1) == b"1":
            return conn
    except OSError:
        pass
    conn.close()
    return None


STARTING_S = 60.0  # a server started this recently is still building: no second one


def start_server() -> None:
    """The server, in the background and a session of its own: it outlives this run.
    Runs that find none while one is being built do not start another."""
    path = socket_path() if enabled() else None
    if path is None:
        return
    starting = path.with_name(path.name + ".starting")
    try:
        if time.time() - starting.stat().st_mtime < STARTING_S:
            return
    except OSError:
        pass
    try:
        starting.touch()
        subprocess.Popen(
            [sys.executable, "-m", "qlgate_ebay_emulator.server", str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
        )
    except OSError:
        pass


# ------------------------------------------------------------------ the server's side


def serve(path: Path) -> None:
    """Build the marketplace, then fork a child per run that asks, until idle. The
    listings' times are set when it is built (live for minutes to days from then), so it
    is built again once ``REFRESH_S`` old, between runs: a run never sees listings older
    than that, where a fresh build would have shown them live."""
    from .app import Sandbox  # the whole emulator, imported once here

    template, built = Sandbox(), time.monotonic()
    listener = _bind(path)
    if listener is None:
        return
    listener.settimeout(REFRESH_S)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # ended children are reaped by the kernel: no zombies
    children: set[int] = set()
    last = time.monotonic()  # when a run last asked
    try:
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                children = _reaped(children)
                if not children and time.monotonic() - last >= IDLE_S:
                    return
            else:
                children, last = _reaped(children), time.monotonic()
                with conn:
                    pid = _serve_one(conn, listener, template)
                if pid:
                    children.add(pid)
            if time.monotonic() - built >= REFRESH_S:
                template, built = Sandbox(), time.monotonic()
    finally:
        listener.close()
        try:
            if path.exists() and os.stat(path).st_ino == _bound_inode:
                path.unlink()
        except OSError:
            pass


_bound_inode = -1  # the inode of the socket this server bound: it removes only its own


def _bind(path: Path) -> socket.socket | None:
    """The server's socket at ``path``; None when another server answers there already."""
    global _bound_inode
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect(str(path))
        return None  # another server is up
    except OSError:
        pass
    finally:
        probe.close()
    temporary = path.with_name(f"{path.name}.{os.getpid()}")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    temporary.unlink(missing_ok=True)
    listener.bind(str(temporary))
    listener.listen(64)
    os.replace(temporary, path)  # atomic: a run connects to a whole server or to none
    _bound_inode = os.stat(path).st_ino
    path.with_name(path.name + ".starting").unlink(missing_ok=True)
    return listener


def _reaped(children: set[int]) -> set[int]:
    """The children still serving a run (the kernel reaps the others)."""
    alive = set()
    for pid in children:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        alive.add(pid)
    return alive


def _serve_one(conn: socket.socket, listener: socket.socket, template: Any) -> int:
    """Fork the child that serves the run at the other end of ``conn``; its pid."""
    uid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))[1]
    if uid != os.getuid():
        return 0
    conn.settimeout(READY_S)
    try:
        message, fds, _, _ = socket.recv_fds(conn, 4096, 1)
        token = str(json.loads(message.decode().splitlines()[0])["token"])
    except (OSError, ValueError, KeyError, IndexError):
        return 0
    if len(fds) != 1:
        for fd in fds:
            os.close(fd)
        return 0
    pid = os.fork()
    if pid:
        os.close(fds[0])
        try:
            conn.sendall(b"1")  # at once: the run goes on, its calls wait in the socket's backlog
        except OSError:
            pass
        return pid
    try:  # the child: this run's emulator, until the run closes the connection
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        listener.close()
        template.control_token = token
        asyncio.run(_child(conn, socket.socket(fileno=fds[0]), template))
    finally:
        os._exit(0)


async def _child(conn: socket.socket, sock: socket.socket, sandbox: Any) -> None:
    from aiohttp import web

    runner = web.AppRunner(sandbox.app(), access_log=None)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    conn.setblocking(False)
    loop = asyncio.get_running_loop()
    try:
        while await loop.sock_recv(conn, 1024):
            pass
    except OSError:
        pass
    await runner.cleanup()


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
