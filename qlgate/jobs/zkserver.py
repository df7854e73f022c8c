"""A standalone ZooKeeper server from the Debian package (``zookeeper``), on
127.0.0.1 with its own port and data directory: for tests, benchmarks and
trying the job backend on one machine. Stop and start keep the data, so a
restart looks to clients like a real outage.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ZOOKEEPER_JAR = Path("/usr/share/java/zookeeper.jar")
ZOOKEEPER_CONF = Path("/etc/zookeeper/conf")   # only for its log4j settings


class ZooKeeperUnavailable(RuntimeError):
    """The server is not installed or did not come up."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(port: int) -> bool:
    """ZooKeeper's ``srvr`` four-letter word names the server's mode once it serves
    sessions (``ruok`` answers ``imok`` earlier, while the database may still be loading)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"srvr")
            answer = b""
            while chunk := s.recv(4096):
                answer += chunk
            return b"Mode:" in answer
    except OSError:
        return False


class LocalZooKeeper:
    def __init__(self, *, port: int = 0, data_dir: str | Path | None = None, tick_ms: int = 500,
                 min_session_ms: int = 1000, max_session_ms: int = 60_000):
        if not ZOOKEEPER_JAR.exists() or shutil.which("java") is None:
            raise ZooKeeperUnavailable(f"{ZOOKEEPER_JAR} or java is missing: install the Debian package "
                                       "'zookeeper' (.ci/install-system-packages)")
        self.port = port or _free_port()
        self._owns_dir = data_dir is None
        self.dir = Path(data_dir or tempfile.mkdtemp(prefix="qlgate-zk-"))
        (self.dir / "data").mkdir(parents=True, exist_ok=True)
        (self.dir / "zoo.cfg").write_text("\n".join([
            f"tickTime={tick_ms}", f"dataDir={self.dir / 'data'}", f"clientPort={self.port}",
            "clientPortAddress=127.0.0.1", "maxClientCnxns=0", "admin.enableServer=false",
            f"minSessionTimeout={min_session_ms}", f"maxSessionTimeout={max_session_ms}",
            "4lw.commands.whitelist=ruok,srvr,mntr", "autopurge.purgeInterval=0", ""]))
        self._proc: subprocess.Popen | None = None

    @property
    def hosts(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> "LocalZooKeeper":
        log = open(self.dir / "server.log", "ab")
        self._proc = subprocess.Popen(
            # a small server sharing the machine with its clients: the serial collector and the
            # client compiler alone leave more CPU to them (bench/jobs.py: handoffs ~15% sooner);
            # with no pool of I/O worker threads the selector thread reads and writes the sockets
            # itself, one thread hand-off less per request (bench/jobs.py: ZooKeeper's CPU per job
            # 2.3 → 1.4 ms, release → start p50 ~65 → ~45 ms)
            ["java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
             "-Dzookeeper.nio.numWorkerThreads=0", "-cp", f"{ZOOKEEPER_JAR}:{ZOOKEEPER_CONF}", f"-Dzookeeper.log.dir={self.dir}",
             "-Dzookeeper.root.logger=WARN,CONSOLE", "org.apache.zookeeper.server.ZooKeeperServerMain",
             str(self.dir / "zoo.cfg")],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while not _answers(self.port):
            if self._proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise ZooKeeperUnavailable(f"ZooKeeper did not start on port {self.port}; see {self.dir}/server.log")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)

    def close(self) -> None:
        self.stop()
        if self._owns_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> "LocalZooKeeper":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
