"""ZooKeeper servers from the Debian package (``zookeeper``) on 127.0.0.1, each
with its own ports and data directory: for tests, benchmarks and trying the
job backend on one machine. ``LocalZooKeeper`` is one standalone server;
``LocalEnsemble`` is a real quorum of three (or more) peers, for tests that
crash a leader or take a majority away. Stop and start keep the data, so a
restart looks to clients like a real outage.
"""

from __future__ import annotations

import math
import shutil
import tempfile
import time
from pathlib import Path

from .zookeeper_process import (
    LOOPBACK,
    ZOOKEEPER_CONF,
    ZOOKEEPER_JAR,
    ServerProcess,
    ZooKeeperUnavailable,
    answers,
    base_config,
    four_letter,
    free_port,
    free_ports,
    mode_of,
    require_installed,
)

# the server process and the helpers both kinds share live in zookeeper_process.py; these names
# were importable from here, and stay so
__all__ = ["LOOPBACK", "ZOOKEEPER_CONF", "ZOOKEEPER_JAR", "LocalEnsemble", "LocalZooKeeper", "ZooKeeperUnavailable"]


# ------------------------------------------------------------------ one standalone server


class LocalZooKeeper:
    def __init__(
        self,
        *,
        port: int = 0,
        data_dir: str | Path | None = None,
        tick_ms: int = 500,
        min_session_ms: int = 1000,
        max_session_ms: int = 60_000,
    ):
        require_installed()
        self.port = port or free_port()
        self._owns_dir = data_dir is None
        self.dir = Path(data_dir or tempfile.mkdtemp(prefix="qlgate-zk-"))
        (self.dir / "data").mkdir(parents=True, exist_ok=True)
        (self.dir / "zoo.cfg").write_text(
            "\n".join(
                [
                    *base_config(
                        data_dir=self.dir / "data",
                        client_port=self.port,
                        tick_ms=tick_ms,
                        min_session_ms=min_session_ms,
                        max_session_ms=max_session_ms,
                        four_letter_words="ruok,srvr,mntr",
                    ),
                    "",
                ]
            )
        )
        self._server = ServerProcess("org.apache.zookeeper.server.ZooKeeperServerMain", self.dir / "zoo.cfg")
        self.started_in = 0.0  # seconds the last start took

    @property
    def hosts(self) -> str:
        return f"{LOOPBACK}:{self.port}"

    def start(self, timeout: float = 30) -> LocalZooKeeper:
        """Launch the server and wait until it answers; ``started_in`` says how long that took
        (tests whose bounds depend on how fast a restart is here derive them from it)."""
        began = time.monotonic()
        self._server.launch()
        deadline = began + timeout
        while not answers(self.port):
            if self._server.exited or time.monotonic() > deadline:
                self.stop()
                raise ZooKeeperUnavailable(f"ZooKeeper did not start on port {self.port}; see {self.dir}/server.log")
            time.sleep(0.05)
        self.started_in = time.monotonic() - began
        return self

    def stop(self) -> None:
        self._server.stop()

    def close(self) -> None:
        self.stop()
        if self._owns_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def running(self) -> bool:
        return self._server.running

    def __enter__(self) -> LocalZooKeeper:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


# ------------------------------------------------------------------ a quorum of peers

# How long a follower may take to connect to a new leader and sync (initLimit) and how long
# leader and follower may go without hearing each other (syncLimit), in seconds; the config
# counts them in ticks. A crashed peer's sockets close at once, so neither bounds how soon a
# crash is noticed. syncLimit bounds how soon a silent (frozen, partitioned) leader is given up:
# 2 s leaves room for a loaded 2-core machine, where a spurious re-election would make tests
# flaky. initLimit bounds how long a leader-elect waits for followers that have gone away (it
# serves nobody meanwhile): with a majority stopped right after an election, the survivor sat
# out a whole initLimit (10 s measured) before joining the restarted pair. Syncing a test's
# small database takes milliseconds.
INIT_LIMIT_S = 3.0
SYNC_LIMIT_S = 2.0

# JVM system properties of every peer. Measured on 2 cores: a re-election after the leader is
# killed takes ~0.4 s with or without them; they bound the slower paths.
QUORUM_PROPERTIES = {
    # a leader-elect whose voters went away keeps waiting for them up to initLimit; with this,
    # it gives up 1 s into the wait as soon as one of them is heard looking for a leader again
    # (the case above: the survivor then joins the restarted pair within about a second)
    "zookeeper.leader.maxTimeToWaitForEpoch": "1000",
    # connecting to a peer's election port: a crashed peer on loopback refuses at once, this
    # only bounds a peer that is frozen (SIGSTOP) or behind a black hole (default 5 s)
    "zookeeper.cnxTimeout": "1000",
    # a peer whose election port cannot be bound (taken since free_ports chose it) tries this
    # many times, 1 s apart, then exits (default 3): it fails within a second, and the next
    # wait_for_quorum() names it, instead of a peer lingering half-connected for 3 s
    "zookeeper.electionPortBindRetry": "1",
    # a peer that hears no votes waits 0.2 s, then twice as long each round, up to this (default
    # 60 s): a lone survivor keeps asking often enough to notice returning peers soon
    "zookeeper.fastleader.maxNotificationInterval": "1000",
}


class _Peer:
    """One member of an ensemble: its myid, its three ports, its directory and its process."""

    def __init__(self, myid: int, client_port: int, quorum_port: int, election_port: int, dir: Path):
        self.myid, self.dir = myid, dir
        self.client_port, self.quorum_port, self.election_port = client_port, quorum_port, election_port
        self.process = ServerProcess(
            "org.apache.zookeeper.server.quorum.QuorumPeerMain", dir / "zoo.cfg", properties=QUORUM_PROPERTIES
        )


class LocalEnsemble:
    """``size`` ZooKeeper peers (``QuorumPeerMain``) forming one ensemble on 127.0.0.1.

    Servers are numbered from 0 (``myid`` is index + 1). ``kill(i)`` is a crash (SIGKILL),
    ``stop(i)`` a clean shutdown (SIGTERM); ``start_server(i)`` brings a server back on the
    same ports and data, as a restarted machine would. ``start()`` and ``wait_for_quorum()``
    wait until exactly one leader serves, every running server serves and they are a majority.

    Measured on 2 cores (tick 200 ms): start to a serving quorum ~1 s; after ``kill(leader)``
    the others serve again within ~0.4 s (a client on the dead leader is back in ~0.4 s, same
    session); a frozen leader (SIGSTOP) is replaced after ~3 s (syncLimit). Each JVM holds
    65-80 MB resident.
    """

    def __init__(
        self,
        size: int = 3,
        *,
        tick_ms: int = 200,
        min_session_ms: int = 1000,
        max_session_ms: int = 60_000,
        data_dir: str | Path | None = None,
    ):
        require_installed()
        if size < 2:
            raise ValueError("an ensemble has at least two servers (LocalZooKeeper is one)")
        self.size = size
        self._owns_dir = data_dir is None
        self.dir = Path(data_dir or tempfile.mkdtemp(prefix="qlgate-zk-ensemble-"))
        ports = free_ports(3 * size)
        self._peers = [
            _Peer(i + 1, ports[3 * i], ports[3 * i + 1], ports[3 * i + 2], self.dir / f"server{i + 1}")
            for i in range(size)
        ]
        members = [f"server.{p.myid}={LOOPBACK}:{p.quorum_port}:{p.election_port}" for p in self._peers]
        init_limit = max(2, math.ceil(INIT_LIMIT_S * 1000 / tick_ms))
        sync_limit = max(2, math.ceil(SYNC_LIMIT_S * 1000 / tick_ms))
        for peer in self._peers:
            (peer.dir / "data").mkdir(parents=True, exist_ok=True)
            (peer.dir / "data" / "myid").write_text(f"{peer.myid}\n")
            (peer.dir / "zoo.cfg").write_text(
                "\n".join(
                    [
                        *base_config(
                            data_dir=peer.dir / "data",
                            client_port=peer.client_port,
                            tick_ms=tick_ms,
                            min_session_ms=min_session_ms,
                            max_session_ms=max_session_ms,
                            four_letter_words="ruok,srvr,mntr,stat",
                        ),
                        f"initLimit={init_limit}",
                        f"syncLimit={sync_limit}",
                        *members,
                        "",
                    ]
                )
            )

    # -------------------------------------------------------------- addresses

    @property
    def hosts(self) -> str:
        """The connect string naming every server (clients fail over between them)."""
        return ",".join(self.host(i) for i in range(self.size))

    def host(self, i: int) -> str:
        return f"{LOOPBACK}:{self.port(i)}"

    def port(self, i: int) -> int:
        """Server ``i``'s client port."""
        return self._peers[i].client_port

    def log(self, i: int) -> Path:
        return self._peers[i].dir / "server.log"

    # -------------------------------------------------------------- state

    def modes(self) -> list[str | None]:
        """Each server's ``Mode:`` (``leader``, ``follower``), None where it does not serve:
        down, still starting, or electing (a peer cut off from a majority stops serving)."""
        return [mode_of(p.client_port) for p in self._peers]

    def leader(self) -> int | None:
        modes = self.modes()
        return modes.index("leader") if modes.count("leader") == 1 else None

    def clients(self, i: int) -> list[str]:
        """The addresses (``127.0.0.1:port``) of the clients connected to server ``i``, from its
        ``stat`` answer: which server a client sits on, e.g. to crash exactly that one."""
        answer, asker = four_letter(self.port(i), "stat")
        listed = answer.partition("Clients:\n")[2].partition("\n\n")[0]
        addresses = [line.strip().lstrip("/").partition("[")[0] for line in listed.splitlines() if line.strip()]
        return [address for address in addresses if address != asker]

    def running(self, i: int) -> bool:
        return self._peers[i].process.running

    def pid(self, i: int) -> int | None:
        return self._peers[i].process.pid

    def wait_for_quorum(self, timeout: float = 30) -> int:
        """Wait until one leader serves, every running server serves, and they are a majority;
        the leader's index. Raises ZooKeeperUnavailable on timeout or when a server exited."""
        deadline = time.monotonic() + timeout
        while True:
            exited = [i for i in range(self.size) if self._peers[i].process.exited]
            if exited:  # by itself: a port taken, a bad config
                raise ZooKeeperUnavailable(f"server {exited[0]} exited; see {self.log(exited[0])}")
            modes = self.modes()
            running = [i for i in range(self.size) if self.running(i)]
            serving = [i for i, mode in enumerate(modes) if mode is not None]
            if modes.count("leader") == 1 and set(running) <= set(serving) and len(serving) > self.size // 2:
                return modes.index("leader")
            if time.monotonic() > deadline:
                raise ZooKeeperUnavailable(
                    f"the ensemble has no quorum (modes {modes} after {timeout} s); see {self.dir}/server*/server.log"
                )
            time.sleep(0.05)

    # -------------------------------------------------------------- life cycle

    def start(self, timeout: float = 60) -> LocalEnsemble:
        """Start every server at once (they elect while the JVMs warm up) and wait for a quorum."""
        try:
            for i in range(self.size):
                self.start_server(i)
            self.wait_for_quorum(timeout)
        except BaseException:
            self.close()
            raise
        return self

    def start_server(self, i: int) -> None:
        """Start server ``i`` again on its ports and data; it does not wait (see wait_for_quorum)."""
        self._peers[i].process.launch()

    def kill(self, i: int) -> None:
        """Crash server ``i`` (SIGKILL): no goodbye to peers or clients, whose sockets the kernel closes."""
        self._peers[i].process.kill()

    def stop(self, i: int) -> None:
        """Shut server ``i`` down (SIGTERM)."""
        self._peers[i].process.stop()

    def close(self) -> None:
        """Stop every server (all signalled first, then waited for) and remove a temporary data dir."""
        for peer in self._peers:
            peer.process.terminate()
        for peer in self._peers:
            peer.process.wait()
        if self._owns_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> LocalEnsemble:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def main(argv: list[str] | None = None) -> int:
    """``python3 -m tests.servers.zookeeper [--port 2181]``: one standalone server in the
    foreground, to try the job cluster on one machine (README, "A cluster in production");
    Ctrl-C stops it and removes its data."""
    import argparse
    import signal

    parser = argparse.ArgumentParser(prog="python3 -m tests.servers.zookeeper", description=main.__doc__)
    parser.add_argument("--port", type=int, default=2181, help="the client port (default 2181)")
    args = parser.parse_args(argv)
    try:
        server = LocalZooKeeper(port=args.port).start()
    except ZooKeeperUnavailable as error:
        print(error)
        return 1
    print(f"ZooKeeper on {server.hosts} (data in {server.dir}); Ctrl-C stops it", flush=True)
    try:
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    import signal as _signal

    _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGINT, _signal.SIGTERM})  # for sigwait
    raise SystemExit(main())
