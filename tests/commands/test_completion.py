"""``qlgate completion bash`` sourced in bash: the completion function answers
from the parser (subcommands, options, an option's values, file names)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from qlgate.cli import build_parser
from qlgate.commands.completion import script

from .helpers import piped


def complete(bash_script: str, *words: str, cwd=None) -> list[str]:
    """COMPREPLY after the completion function ran on ``words`` (the last one being completed)."""
    line = " ".join(f"'{w}'" for w in words)
    probe = f"""source /dev/stdin <<'QLGATE_COMPLETION'
{bash_script}
QLGATE_COMPLETION
COMP_WORDS=({line}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
_qlgate
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    done = subprocess.run(["bash", "-c", probe], cwd=cwd, capture_output=True, text=True, timeout=30, check=True)
    assert done.stderr == ""
    return done.stdout.split()


@pytest.fixture(scope="module")
def bash_script() -> str:
    proc = piped("completion", "bash")
    assert proc.returncode == 0, proc.stderr
    assert "complete -o filenames -F _qlgate qlgate" in proc.stdout
    return proc.stdout


def test_subcommands_at_each_level(bash_script):
    assert complete(bash_script, "qlgate", "")[:3] == ["run", "check", "tables"]
    assert {"run", "jobs", "serve", "completion"} <= set(complete(bash_script, "qlgate", ""))
    assert complete(bash_script, "qlgate", "j") == ["jobs"]
    assert complete(bash_script, "qlgate", "jobs", "w") == ["wait"]
    assert complete(bash_script, "qlgate", "completion", "") == ["bash", "zsh"]


def test_options_and_their_values(bash_script):
    assert complete(bash_script, "qlgate", "run", "--f") == ["--format"]
    assert complete(bash_script, "qlgate", "run", "--format", "") == ["json", "pretty", "table", "ndjson"]
    # an option's value is skipped when finding the command path
    assert complete(bash_script, "qlgate", "run", "--config", "c.json", "--format", "t") == ["table"]
    assert complete(bash_script, "qlgate", "jobs", "list", "--state", "r") == ["running"]
    assert "--timeout" in complete(bash_script, "qlgate", "jobs", "wait", "--")
    assert "--timeout" not in complete(bash_script, "qlgate", "jobs", "list", "--")


def test_file_names_where_a_file_goes(bash_script, tmp_path):
    (tmp_path / "search.ql").write_text("return 1;")
    assert complete(bash_script, "qlgate", "run", "sea", cwd=tmp_path) == ["search.ql"]
    assert complete(bash_script, "qlgate", "run", "--config", "se", cwd=tmp_path) == ["search.ql"]


def test_every_subcommand_of_the_parser_is_in_the_script():
    from qlgate.commands.completion import walk

    text = script(build_parser(), "bash")
    for path, _ in walk(build_parser()):
        if path:
            assert f'"{" ".join(path[:-1])}") echo "' in text and path[-1] in text


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_the_zsh_script_parses():
    text = piped("completion", "zsh").stdout
    assert text.startswith("#compdef qlgate") and "compdef _qlgate qlgate" in text
    subprocess.run(["zsh", "-n", "-c", text], check=True, timeout=30)


def test_the_zsh_script_is_made_from_the_same_tables():
    bash, zsh = script(build_parser(), "bash"), script(build_parser(), "zsh")
    table = bash[bash.index("_qlgate_subcommands()") : bash.index("_qlgate() {")]
    assert table in zsh and "${words[CURRENT]}" in zsh and "compadd" in zsh
