"""One ZooKeeper server process from the Debian package (``zookeeper``) on
127.0.0.1, and how to ask it things: what ``zookeeper.py``'s standalone server
and ensemble peers share — the install check, free ports, the config lines
every server gets, four-letter words, and the JVM's life cycle.

Kept apart from ``zookeeper.py`` (which re-exports the public names): that module
is what a test or benchmark asks for — a standalone server or a quorum, its
config and the waits until it serves — and both kinds run on the process and
probes here.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
from contextlib import ExitStack
from pathlib import Path

from qlgate.errors import QlError

ZOOKEEPER_JAR = Path("/usr/share/java/zookeeper.jar")
ZOOKEEPER_CONF = Path("/etc/zookeeper/conf")  # only for its log4j settings
# the jar names slf4j's API but no binding: without one the server logs nothing at all, and a
# peer that will not join a quorum leaves no trace; Debian's log4j binding makes its WARN lines
# (elections, lost followers, expired sessions' errors) land in server.log
_LOG_JARS = [Path("/usr/share/java/slf4j-log4j12.jar"), Path("/usr/share/java/log4j-1.2.jar")]
_CLASSPATH = ":".join(map(str, [ZOOKEEPER_JAR, ZOOKEEPER_CONF, *(j for j in _LOG_JARS if j.exists())]))
LOOPBACK = "127.0.0.1"


class ZooKeeperUnavailable(QlError, RuntimeError):
    """The server is not installed or did not come up."""

    status = 503


# ------------------------------------------------------------------ helpers shared by both kinds


def require_installed() -> None:
    if not ZOOKEEPER_JAR.exists() or shutil.which("java") is None:
        raise ZooKeeperUnavailable(
            f"{ZOOKEEPER_JAR} or java is missing: install the Debian package 'zookeeper' (.ci/install-system-packages)"
        )


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports free right now: all sockets are held until every port is
    chosen, so the kernel cannot hand the same one out twice."""
    with ExitStack() as held:
        ports = []
        for _ in range(count):
            s = held.enter_context(socket.socket())
            s.bind((LOOPBACK, 0))
            ports.append(s.getsockname()[1])
        return ports


def free_port() -> int:
    return free_ports(1)[0]


def four_letter(port: int, word: str, timeout: float = 0.5) -> tuple[str, str]:
    """The server's answer to a four-letter word ("" if none), and the address this question
    came from (a ``stat`` answer lists it among the clients)."""
    try:
        with socket.create_connection((LOOPBACK, port), timeout=timeout) as s:
            asker = "{}:{}".format(*s.getsockname()[:2])
            s.sendall(word.encode())
            answer = b""
            while chunk := s.recv(4096):
                answer += chunk
            return answer.decode("utf-8", "replace"), asker
    except OSError:
        return "", ""


def mode_of(port: int) -> str | None:
    """``standalone``, ``leader``, ``follower`` (or ``observer``); None while not serving.
    A server names its ``Mode:`` in ``srvr`` only once it serves sessions (``ruok`` answers
    ``imok`` earlier, while the database may still be loading, and a peer without a quorum
    answers it too)."""
    for line in four_letter(port, "srvr")[0].splitlines():
        if line.startswith("Mode:"):
            return line.partition(":")[2].strip()
    return None


def answers(port: int) -> bool:
    return mode_of(port) is not None


def base_config(
    *, data_dir: Path, client_port: int, tick_ms: int, min_session_ms: int, max_session_ms: int, four_letter_words: str
) -> list[str]:
    return [
        f"tickTime={tick_ms}",
        f"dataDir={data_dir}",
        f"clientPort={client_port}",
        f"clientPortAddress={LOOPBACK}",
        "maxClientCnxns=0",
        "admin.enableServer=false",
        f"minSessionTimeout={min_session_ms}",
        f"maxSessionTimeout={max_session_ms}",
        f"4lw.commands.whitelist={four_letter_words}",
        "autopurge.purgeInterval=0",
    ]


class ServerProcess:
    """One JVM running a ZooKeeper main class on a config file, its output in
    ``<dir>/server.log`` (appended, so a restarted server's log tells the whole story)."""

    def __init__(self, main_class: str, config: Path, *, properties: dict[str, str] | None = None):
        self.main_class, self.config = main_class, config
        self.dir = config.parent
        self.properties = properties or {}
        self.proc: subprocess.Popen | None = None

    def launch(self) -> None:
        if self.running:
            return
        with open(self.dir / "server.log", "ab") as log:
            self.proc = subprocess.Popen(
                # a small server sharing the machine with its clients: the serial collector and the
                # client compiler alone leave more CPU to them (bench/jobs.py: handoffs ~15% sooner);
                # with no pool of I/O worker threads the selector thread reads and writes the sockets
                # itself, one thread hand-off less per request (bench/jobs.py: ZooKeeper's CPU per job
                # 2.3 → 1.4 ms, release → start p50 ~65 → ~45 ms); quorum peers take the same flag
                [
                    "java",
                    "-Xmx256m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-Dzookeeper.nio.numWorkerThreads=0",
                    *(f"-D{name}={value}" for name, value in self.properties.items()),
                    "-cp",
                    _CLASSPATH,
                    f"-Dzookeeper.log.dir={self.dir}",
                    "-Dzookeeper.root.logger=WARN,CONSOLE",
                    self.main_class,
                    str(self.config),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def exited(self) -> bool:
        """Launched and gone by itself (a bad config, a port taken) — not stopped by us."""
        return self.proc is not None and self.proc.poll() is not None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None and self.proc.poll() is None else None

    def signal(self, signum: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signum)

    def wait(self, timeout: float = 10) -> None:
        """Wait for the process to end after a signal, killing it if SIGTERM was not enough."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)

    def terminate(self) -> None:
        """Ask the server to shut down; a frozen one (SIGSTOP, by a test) is thawed to hear it."""
        self.signal(signal.SIGTERM)
        self.signal(signal.SIGCONT)

    def stop(self, timeout: float = 10) -> None:
        self.terminate()
        self.wait(timeout)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        self.wait(5)
