"""Exit statuses that mean the same from every command: 2 for usage whichever
layer finds it, 3 for a timeout, 1 for a script that fails."""

from __future__ import annotations

import json
import socket
import threading

import pytest

from qlgate.commands.arguments import UsageError
from qlgate.commands.report import exit_status
from qlgate.errors import ConfigError, QlError, TableNotFound, UpstreamTimeout

from .helpers import piped


@pytest.fixture
def silent_upstream():
    """A listener that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join(5)
    for connection in held:
        connection.close()
    server.close()


def test_an_upstream_that_outlasts_its_timeout_exits_3(tmp_path, silent_upstream):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "slow.ql").write_text(f"create table slow on select get from '{silent_upstream}/x'")
    (tmp_path / "c.json").write_text(json.dumps({"defaultTimeout": 300}))
    proc = piped(
        "run",
        "-e",
        "return select * from slow;",
        "--tables",
        str(tmp_path / "tables"),
        "--config",
        str(tmp_path / "c.json"),
    )
    assert proc.returncode == 3, proc.stderr
    assert json.loads(proc.stderr.splitlines()[-1])["status"] == 504


@pytest.mark.parametrize(
    "error, status",
    [
        (UsageError("bad --var"), 2),
        (ConfigError("cannot read config file x"), 2),
        (UpstreamTimeout("slow"), 3),
        (QlError("job 3 is still queued after 1 s", status=504), 3),
        (TableNotFound("No such table t"), 1),
        (QlError("internal"), 1),
    ],
)
def test_each_kind_of_error_has_its_exit_status(error, status):
    assert exit_status(error) == status


def test_a_missing_script_and_a_bad_var_are_usage_from_every_command(tmp_path):
    for args in (["run", "nope.ql"], ["jobs", "submit", "nope.ql", "--gateway", "http://127.0.0.1:1"]):
        proc = piped(*args, cwd=tmp_path)
        assert proc.returncode == 2 and "cannot read script" in proc.stderr, args
    bad_var = piped("jobs", "submit", "-", "--var", "x", "--gateway", "http://127.0.0.1:1", stdin="return 1;")
    assert bad_var.returncode == 2 and "bad --var" in bad_var.stderr


@pytest.mark.parametrize(
    "options, stdin, message",
    [
        (["--max-attempts", "0"], "return 1;", "max attempts must be a whole number"),
        (["--priority", "99999"], "return 1;", "priority must be an integer"),
        (["--max-seconds", "-1"], "return 1;", "--max-seconds must be a number of seconds above 0"),
        ([], "  ", "the script is empty"),
    ],
)
def test_a_job_submission_the_backend_would_refuse_is_usage_before_it_is_sent(options, stdin, message):
    """--help says 2 for bad arguments; these were sent and refused by the backend (exit 1)."""
    proc = piped("jobs", "submit", "-", *options, "--gateway", "http://127.0.0.1:1", stdin=stdin)
    assert proc.returncode == 2 and message in proc.stderr and "cannot reach" not in proc.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["worker", "--slots", "0", "--zookeeper", "127.0.0.1:1"], "--slots takes a whole number of at least 1"),
        (["sandbox", "--port", "70000"], "--port takes a whole number from 0 to 65535"),  # it wrapped to 4464
        (["jobs", "list", "--limit", "0", "--gateway", "http://127.0.0.1:1"], "--limit takes a whole number from 1"),
        (["jobs", "wait", "1", "--timeout", "-5", "--gateway", "http://127.0.0.1:1"], "--timeout takes a number"),
    ],
)
def test_a_number_out_of_its_range_is_usage_with_the_commands_usage(args, message):
    proc = piped(*args)
    assert proc.returncode == 2 and message in proc.stderr and proc.stderr.startswith("usage: qlgate ")


def test_jobs_submit_warns_of_a_variable_the_script_never_gets_as_run_does():
    proc = piped(
        "jobs", "submit", "-", "--var", "keywords=x", "--gateway", "http://127.0.0.1:1", stdin='return "{kewords}";'
    )
    assert "<stdin>:1:9: 'kewords' is never assigned and no --var gives it; did you mean 'keywords'?" in proc.stderr
    given = piped(
        "jobs", "submit", "-", "--var", "kewords=x", "--gateway", "http://127.0.0.1:1", stdin='return "{kewords}";'
    )
    assert "never assigned" not in given.stderr


def test_files_named_on_the_command_line_that_do_not_exist_are_usage(tmp_path):
    for args in (
        ["import", "openapi", "nope.yaml", "--name", "x", "--out", "out"],
        ["config", "check", "--config", "nope.json"],
        ["config", "show", "--config", "nope.json"],
    ):
        proc = piped(*args, cwd=tmp_path)
        assert proc.returncode == 2 and "nope" in proc.stderr, (args, proc.stderr)


def test_the_emulator_on_a_busy_port_is_one_line_and_exit_2():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        proc = piped("sandbox", "--port", str(busy.getsockname()[1]))
    assert proc.returncode == 2 and "is in use" in proc.stderr and "internal error" not in proc.stderr


def test_a_tables_directory_that_is_not_there_is_usage(tmp_path):
    proc = piped("check", "--tables", str(tmp_path / "nope"), cwd=tmp_path)
    assert proc.returncode == 2 and "no directory" in proc.stderr
