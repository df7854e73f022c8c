"""The prompt, driven through a pipe as a terminal would type into it: a
statement runs when it ends with ';', not before; the history is kept in a
file; dot-commands answer; an error does not end the shell."""

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from qlgate.shell.app import history_file, ready


async def type_into(rig, *keys: str) -> int:
    rig.shell.interactive = True
    with create_pipe_input() as pipe:
        for text in keys:
            pipe.send_text(text)
        return await asyncio.wait_for(rig.shell.prompt_loop(input=pipe, output=DummyOutput()), 30)


async def test_statements_run_when_ended_by_a_semicolon_and_the_shell_survives_an_error(rig, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    code = await type_into(
        rig,
        'x = {"n":\r',  # not ended: Enter goes on to a new line
        "  5}\r",
        ";\r",
        'return "{x.n}";\r',
        "select * from nowhere;\r",
        ".vars\r",
        ".output table\r",
        'return [{"a": 1, "b": "two"}];\r',
        ".nosuch\r",
        "return 2;\r",
        "\x04",  # Ctrl-D on an empty line
    )
    out, err = rig.take()
    assert code == 0
    assert out.splitlines() == [
        '{"n":5}',
        "5",
        'given = "from --var"',
        'x = {"n":5}',
        "output is table",
        "a  b",  # the table qlgate run --format table prints: one formatter for both
        "-  ---",
        "1  two",
        "2",
    ]
    assert "error: line 1: No such table nowhere" in err and "unknown command .nosuch" in err
    assert "Traceback" not in err
    kept = tmp_path / "state" / "qlgate" / "history"
    assert kept.stat().st_mode & 0o777 == 0o600  # statements may hold tokens
    history = kept.read_text()
    assert 'x = {"n":\n+  5}\n+;' in history and "+return 2;" in history


async def test_quit_ends_the_prompt(rig, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert await type_into(rig, ".quit\r", "return 1;\r") == 0
    assert rig.take()[0] == ""


def test_when_enter_runs_what_is_typed(tmp_path, monkeypatch):
    assert ready("return 1;") and ready("a = 1; b = 2;\n") and ready(".tables") and ready("  ")
    assert not ready("return 1") and not ready('a = "1;') and not ready("if (a) { b = 1;")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert history_file() == tmp_path / "qlgate" / "history"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert history_file() == tmp_path / ".local" / "state" / "qlgate" / "history"
