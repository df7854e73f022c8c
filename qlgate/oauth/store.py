"""Tokens shared by every process of one gateway (``qlgate serve --workers N``), and
by the ``qlgate run`` s of one user: a directory of small files, one per credential
(named by ``OAuthEntry.cache_key``), each with a lock file beside it.

A process that needs a token takes the credential's lock (``fcntl.flock``, waited for
without blocking the event loop), reads the file and uses a token still fresh there;
only when there is none does it ask the token endpoint, and it writes the answer
before it lets go. So N cold workers make one token request, and N workers whose
calls were refused with the same stale token make one refresh. A process that dies
holding the lock releases it with its last file descriptor.

The directory is config ``oauth.cacheDir`` (``false``: no sharing, each process on
its own), by default ``$XDG_RUNTIME_DIR/qlgate/oauth`` or ``<tmp>/qlgate-<uid>/oauth``.
The tokens in it are as good as passwords for their lifetime: the directories are
created 0700 and must be the user's own and closed to others (else the store is not
used, with a warning), the files are written 0600, atomically, never followed through
a symbolic link.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import stat
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from ..config_values import ConfigView
from .tokens import Token

log = logging.getLogger("qlgate.oauth")

LOCK_WAIT = 30.0  # seconds; past it a process fetches on its own (the holder is stuck, not dead)
STALE_AFTER = 3600.0  # seconds past its expiry: a token no process can use, removed with its lock
PRUNE_AT_MOST = 1000  # files looked at per pruning, so one write never takes long


def default_dir() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "qlgate" / "oauth"
    return Path(tempfile.gettempdir()) / f"qlgate-{os.getuid()}" / "oauth"


def configured_dir(config: dict[str, Any] | ConfigView) -> Path | None:
    """Config ``oauth.cacheDir``: a directory, ``false`` for none, default ``default_dir()``."""
    setting = (config if isinstance(config, ConfigView) else ConfigView(config)).value("oauth.cacheDir")
    if setting is False or setting == "":
        return None
    if isinstance(setting, str):
        try:
            return Path(setting).expanduser()
        except RuntimeError as e:  # "~nobody/x": a user without a home here
            log.warning("OAuth token store %s not used, tokens are not shared between processes: %s", setting, e)
            return None
    return default_dir()


def private_dir(path: Path, *, levels: int = 2) -> Path:
    """``path`` created 0700 if need be, it and its ``levels - 1`` parents checked to be
    directories of this user that nobody else may enter or change. Raises OSError."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    for directory in [path, *path.parents][:levels]:
        info = os.lstat(directory)
        if not stat.S_ISDIR(info.st_mode):
            raise OSError(f"{directory} is not a directory (a symbolic link?)")
        if info.st_uid != os.getuid():
            raise OSError(f"{directory} belongs to another user")
        if info.st_mode & 0o077:
            os.chmod(directory, 0o700)
    return path


class TokenStore:
    def __init__(self, directory: Path):
        self.directory = directory

    @classmethod
    def open(cls, config: dict[str, Any] | ConfigView) -> TokenStore | None:
        """The store the config names, or None (no sharing) when it says so or the
        directory is not safe to keep tokens in."""
        directory = configured_dir(config)
        if directory is None:
            return None
        try:
            # the default's parent is ours too (``qlgate-<uid>`` in a shared temp dir: one
            # made by someone else first must not be used); a configured one is checked alone
            return cls(private_dir(directory, levels=2 if directory == default_dir() else 1))
        except OSError as e:
            log.warning("OAuth token store %s not used, tokens are not shared between processes: %s", directory, e)
            return None

    def _file(self, key: str, suffix: str) -> Path:
        return self.directory / f"{key}.{suffix}"

    def read(self, key: str) -> Token | None:
        try:
            fd = os.open(self._file(key, "json"), os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        try:
            if os.fstat(fd).st_uid != os.getuid():
                return None
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = json.loads(f.read(65536))
        except (OSError, ValueError):
            return None
        finally:
            os.close(fd)
        return Token.from_json(data)

    def write(self, key: str, token: Token) -> None:
        """Replace the credential's file at once: a reader sees the old token or the new.
        Tokens long expired go at the same time (every emulator on a new port, every
        credential changed, leaves one behind)."""
        write_private(self._file(key, "json"), json.dumps(token.to_json()))
        self.prune(keep=key)

    def prune(self, *, keep: str = "", now: float | None = None) -> int:
        """Remove tokens expired over ``STALE_AFTER`` ago, and their locks when nobody
        holds them; how many were removed."""
        now = time.time() if now is None else now
        removed = 0
        with contextlib.suppress(OSError):
            for n, path in enumerate(self.directory.glob("*.json")):
                if n >= PRUNE_AT_MOST:
                    break
                key = path.name[: -len(".json")]
                token = self.read(key) if key != keep else None
                if token is None or now - token.expires_at < STALE_AFTER:
                    continue
                lock = self._file(key, "lock")
                try:
                    fd = os.open(lock, os.O_RDWR | os.O_NOFOLLOW)
                except OSError:
                    fd = -1
                try:
                    if fd >= 0:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError: in use, keep it
                    os.unlink(path)
                    if fd >= 0:
                        os.unlink(lock)
                    removed += 1
                except OSError:
                    pass
                finally:
                    if fd >= 0:
                        os.close(fd)
        return removed

    def forget(self, key: str) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self._file(key, "json"))

    @contextlib.asynccontextmanager
    async def locked(self, key: str, wait: float = LOCK_WAIT) -> AsyncIterator[bool]:
        """Hold the credential's lock (yields True), or go on without it after ``wait``
        seconds (False). Polled, so a waiting coroutine never holds up the event loop."""
        fd = os.open(self._file(key, "lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        held = False
        try:
            deadline, pause = time.monotonic() + wait, 0.005
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    held = True
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        log.warning("OAuth token store: lock %s held over %.0f s; fetching without it", key, wait)
                        break
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 0.1)
            yield held
        finally:
            if held:
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically with mode 0600: a temporary file of this
    user's beside it, synced, then renamed over it (a link at ``path`` is replaced,
    not followed)."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mkstemp creates it 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
