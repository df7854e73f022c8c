"""A standalone ``redis-server`` from the Debian package (``redis-server``), on
127.0.0.1 with a free port and a directory of its own, persisting nothing: for
tests and benchmarks of the shared response cache, as ``zookeeper.py`` and
``postgres.py`` are for the job backend.

A free port can be taken by another process between the choice and the bind;
a server that loses that race exits, and another port is tried: the port
answering is only taken for ours while our process still runs.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from qlgate.errors import QlError
from qlgate.ports import free_port

START_S = 10.0
TRIES = 3


class RedisUnavailable(QlError):
    """redis-server is not installed, or did not start."""


def redis_binary() -> str | None:
    """The ``redis-server`` to run, or None when it is not installed."""
    found = shutil.which("redis-server")
    if found is None and Path("/usr/bin/redis-server").exists():
        found = "/usr/bin/redis-server"
    return found


class LocalRedis:
    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        self.port = 0
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> LocalRedis:
        binary = redis_binary()
        if binary is None:
            raise RedisUnavailable("redis-server is not installed (sh .ci/install-system-packages)")
        self.directory.mkdir(parents=True, exist_ok=True)
        for _ in range(TRIES):
            self.port = free_port()
            where = ["--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory)]
            self.process = subprocess.Popen(
                [binary, *where, "--save", "", "--appendonly", "no"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            if self._answers():
                return self
            self.stop()
        raise RedisUnavailable(f"redis-server did not start in {START_S:g} s")

    def _answers(self) -> bool:
        """Whether our server answers on its port (False if it exited: the port was taken)."""
        assert self.process is not None
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self.process.poll() is None
            except OSError:
                time.sleep(0.05)
        return False

    def stop(self) -> None:
        """SIGKILL: to clients, Redis gone at once (what the cache must survive)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
