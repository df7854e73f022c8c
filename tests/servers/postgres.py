"""A standalone PostgreSQL server from the Debian package (``postgresql``), on
127.0.0.1 with its own port and a temporary data directory: for tests,
benchmarks and trying the archive on PostgreSQL on one machine. Like
``zookeeper.LocalZooKeeper``, stop and start keep the data, so a restart looks
to clients like a real outage.

It never touches the cluster the Debian package may have started on port 5432:
its port is a free one, its socket lives in its own directory.

Authentication: TCP connections (the only kind the archive makes) need the
superuser ``postgres``'s password, generated per server and part of ``url()``,
so other users of a shared machine cannot walk in as superuser; the Unix
socket, in a directory only the server's user can enter, trusts its user.

PostgreSQL refuses to run as root. Run as root (CI containers), the server and
``initdb`` run as the ``postgres`` system user the Debian package creates
(``Popen(user=, group=)``: no runuser, no shell), and the temporary directory
is handed to that user; it must be able to reach it, which it can under /tmp
(a ``data_dir`` or a ``TMPDIR`` inside a root-only directory will not do).
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
from psycopg import sql

from qlgate.errors import QlError
from qlgate.ports import free_port

SUPERUSER = "postgres"
SERVICE_USER = "postgres"  # the system user the server runs as when we are root
INSTALL_HINT = "install the Debian package postgresql (.ci/install-system-packages)"

# settings for a throwaway server: durability traded for speed (a crash loses the data, which a
# test server never keeps), and logs kept quiet unless something is wrong
FAST_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "listen_addresses": "127.0.0.1",
    "unix_socket_permissions": "0700",
    "log_min_messages": "warning",
    "logging_collector": "off",
}


class PostgresUnavailable(QlError, RuntimeError):
    """The server is not installed, cannot run as this user, or did not come up."""

    status = 503


def find_bindir() -> Path:
    """Where ``initdb`` and ``postgres`` are: Debian's newest ``/usr/lib/postgresql/N/bin``,
    else what ``pg_config --bindir`` says (a source build, another distribution)."""

    def complete(path: Path) -> bool:
        return (path / "postgres").is_file() and (path / "initdb").is_file()

    def major(path: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path.parent.name)) or (0,)

    debian = sorted((p for p in Path("/usr/lib/postgresql").glob("*/bin") if complete(p)), key=major)
    if debian:
        return debian[-1]
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=False
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            out = ""
        if out and complete(Path(out)):
            return Path(out)
    raise PostgresUnavailable(f"no PostgreSQL server binaries (initdb, postgres) found: {INSTALL_HINT}")


def _service_account() -> pwd.struct_passwd | None:
    """The account the server runs as: ``postgres`` when we are root (PostgreSQL will not
    run as root), ourselves (None) otherwise."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SERVICE_USER)
    except KeyError:
        raise PostgresUnavailable(
            f"PostgreSQL does not run as root and there is no '{SERVICE_USER}' system user to run it as: {INSTALL_HINT}"
        ) from None


class LocalPostgres:
    def __init__(self, *, port: int = 0, data_dir: str | Path | None = None, bindir: str | Path | None = None):
        self.bindir = Path(bindir) if bindir else find_bindir()
        self.port = port or free_port()
        self._account = _service_account()
        self._owns_dir = data_dir is None
        self.dir = Path(data_dir or tempfile.mkdtemp(prefix="qlgate-pg-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "run").mkdir(exist_ok=True)  # the Unix socket: never /var/run/postgresql
        password_file = self.dir / "password"
        if not password_file.exists():
            with os.fdopen(os.open(password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
                out.write(secrets.token_urlsafe(18))
        self.password = password_file.read_text().strip()
        if self._account is not None:
            # initdb wants a data directory its user owns, and that user must reach it
            for path in (self.dir, self.dir / "run", password_file):
                os.chown(path, self._account.pw_uid, self._account.pw_gid)
        self._proc: subprocess.Popen | None = None

    @property
    def data(self) -> Path:
        return self.dir / "data"

    def url(self, dbname: str = "postgres") -> str:
        return (
            f"postgresql://{SUPERUSER}:{quote(self.password, safe='')}@127.0.0.1:{self.port}/{quote(dbname, safe='')}"
        )

    def _as_server_user(self) -> dict[str, Any]:
        """Popen arguments that run a program as the server's account (no shell, no runuser)."""
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"}
        if self._account is None:
            return {"env": env}
        env |= {"HOME": str(self.dir), "USER": SERVICE_USER, "LOGNAME": SERVICE_USER}
        return {
            "env": env,
            "user": self._account.pw_uid,
            "group": self._account.pw_gid,
            "extra_groups": [],
            "cwd": self.dir,
        }

    def _initdb(self) -> None:
        with open(self.dir / "initdb.log", "ab") as log:
            done = subprocess.run(
                [
                    str(self.bindir / "initdb"),
                    "-D",
                    str(self.data),
                    "-U",
                    SUPERUSER,
                    f"--pwfile={self.dir / 'password'}",
                    "--auth-host=scram-sha-256",
                    "--auth-local=trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                umask=0o077,
                timeout=120,
                check=False,
                **self._as_server_user(),
            )
        if done.returncode != 0:
            raise PostgresUnavailable(f"initdb failed (exit {done.returncode}); see {self.dir}/initdb.log")

    def start(self, timeout: float = 30) -> LocalPostgres:
        if self.running:
            return self
        if not (self.data / "PG_VERSION").exists():
            self._initdb()
        settings = {**FAST_SETTINGS, "port": str(self.port), "unix_socket_directories": str(self.dir / "run")}
        command = [str(self.bindir / "postgres"), "-D", str(self.data)]
        for name, value in settings.items():
            command += ["-c", f"{name}={value}"]
        with open(self.dir / "server.log", "ab") as log:  # appended: a restart's log tells the whole story
            self._proc = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                umask=0o077,
                **self._as_server_user(),
            )
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self._proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise PostgresUnavailable(f"PostgreSQL did not start on port {self.port}; see {self.dir}/server.log")
            time.sleep(0.05)
        return self

    def _answers(self) -> bool:
        """Serving once a real login works: the port opens before recovery is over, and
        until then every connection is turned away ("the database system is starting up")."""
        try:
            psycopg.connect(self.url(), connect_timeout=2).close()
            return True
        except psycopg.Error:
            return False

    def create_database(self, name: str) -> str:
        """A new, empty database; its URL."""
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Gone, with any session still in it (``with (force)``, PostgreSQL 13 and later)."""
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))

    def stop(self) -> None:
        """A fast shutdown (SIGINT): clients are disconnected rather than waited for, as
        SIGTERM's smart shutdown would; SIGQUIT if even that hangs."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        for sig, wait in ((signal.SIGINT, 20), (signal.SIGQUIT, 5)):
            proc.send_signal(sig)
            try:
                proc.wait(wait)
                return
            except subprocess.TimeoutExpired:
                continue
        os.killpg(proc.pid, signal.SIGKILL)  # the server and its backends: their own session
        proc.wait(5)

    def close(self) -> None:
        self.stop()
        if self._owns_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> LocalPostgres:
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc: object) -> None:
        self.close()
