"""The command-line contract: JSON on stdout and exit 0, or a JSON error on
stderr and a non-zero exit; check/tables/describe for table authors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest


def qlgate(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "qlgate", *args], cwd=cwd, capture_output=True, text=True, timeout=60)


def error_of(proc: subprocess.CompletedProcess) -> dict:
    return json.loads(proc.stderr.strip().splitlines()[-1])


def test_run_a_file_with_vars(tmp_path):
    script = tmp_path / "s.ql"
    script.write_text('return {"n": "{n}", "s": "{s}", "o": "{o.k}"}')
    proc = qlgate("run", str(script), "--var", "n=5", "--var", "s=plain text", "--var", 'o={"k": [1]}')
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"n": 5, "s": "plain text", "o": [1]}


def test_inline_script_and_syntax_error_with_caret():
    proc = qlgate("run", "-e", "select * frm t")
    assert proc.returncode == 1
    assert "^" in proc.stderr
    error = error_of(proc)
    assert error["type"] == "QlSyntaxError" and (error["line"], error["column"]) == (1, 10)


@pytest.mark.parametrize(
    "args, message, status",
    [
        (["run", "missing.ql"], "cannot read script", 2),
        (["run"], "give a SCRIPT_FILE", 2),
        (["run", "-e", "return 1", "--var", "bad"], "bad --var", 2),
        (["run", "-e", "return 1", "--config", "nope.json"], "cannot read config", 2),
        (["run", "-e", "select * from nowhere"], "No such table nowhere", 1),
    ],
)
def test_bad_input_is_a_json_error_not_a_traceback(tmp_path, args, message, status):
    """Usage (the command line, a file it names) exits 2; a script that fails, 1."""
    proc = qlgate(*args, cwd=tmp_path)
    assert proc.returncode == status
    assert "Traceback" not in proc.stderr
    assert message in error_of(proc)["error"]


def test_diagnostics_go_to_stderr(tmp_path):
    proc = qlgate("run", "-e", "return 1", "--diagnostics")
    assert proc.stdout.strip() == "1" and "0 upstream call(s)" in proc.stderr


def test_check_tables_and_describe(tmp_path):
    tables = tmp_path / "tables"
    (tables / "shop").mkdir(parents=True)
    (tables / "shop" / "search.ql").write_text(
        "-- Keyword search.\ncreate table shop.search on select get from '{config.base}/s?q={^q}&n={n}' "
        "using defaults n = 10 using headers 'X-Key' = '{config.key}'"
    )
    (tables / "bad.ql").write_text("create table bad on select get frm 'x'")
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"base": "http://127.0.0.1:1", "key": "${QLGATE_TEST_KEY}"}))
    routes = tmp_path / "routes"  # none: check compiles these tables only
    routes.mkdir()
    proc = qlgate("check", "--tables", str(tables), "--routes", str(routes), "--config", str(config))
    assert proc.returncode == 1
    assert proc.stdout.strip() == f"{tables / 'bad.ql'}:1:32: unexpected 'frm'; expected 'from'"
    listing = qlgate("tables", "--tables", str(tables), "--config", str(config))
    assert listing.stdout.splitlines() == ["shop.search  (select)"]
    described = qlgate("describe", "search", "--tables", str(tables), "--config", str(config))
    assert "on select: GET http://127.0.0.1:1/s?q={^q}&n={n}" in described.stdout
    assert "required: q" in described.stdout and "optional: n" in described.stdout
    (tables / "bad.ql").unlink()
    assert qlgate("check", "--tables", str(tables), "--routes", str(routes), "--config", str(config)).returncode == 0


def test_every_command_is_in_the_registry_with_a_description():
    from qlgate.cli import COMMANDS, build_parser

    listing = qlgate("--help")
    assert listing.returncode == 0
    parser = build_parser()
    subcommands = next(a for a in parser._actions if a.dest == "command").choices
    assert list(subcommands) == [c.name for c in COMMANDS]
    for command in COMMANDS:
        assert command.help in " ".join(listing.stdout.split()), command.name
        assert len(command.description) > len(command.help), command.name
        assert subcommands[command.name].description == command.description
    jobs = next(a for a in subcommands["jobs"]._actions if a.dest == "action").choices
    assert all(action.description for action in jobs.values())


def test_every_command_help_ends_with_examples_and_the_exit_codes():
    from qlgate.cli import COMMANDS, build_parser

    parser = build_parser()
    subcommands = next(a for a in parser._actions if a.dest == "command").choices
    for command in COMMANDS:
        assert command.examples.startswith("examples:\n  "), command.name
        shown = subcommands[command.name].format_help()
        assert command.examples in shown and "exit status: 0 success, 1 failure, 2 usage" in shown, command.name
    jobs = next(a for a in subcommands["jobs"]._actions if a.dest == "action").choices
    for name, action in jobs.items():
        assert f"examples:\n  qlgate jobs {name}" in action.format_help(), name
    top = qlgate("--help").stdout
    assert "examples:" in top and "3    a timeout" in top and "130  interrupted" in top


def test_qlgate_alone_prints_the_help_not_an_error():
    proc = qlgate()
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: qlgate") and "run a script" in proc.stdout


@pytest.mark.parametrize(
    "args", [["nosuch"], ["run", "--nosuch"], ["jobs"], ["jobs", "wait"], ["run", "-e", "1", "--format", "xml"]]
)
def test_a_command_line_argparse_rejects_exits_2(args):
    proc = qlgate(*args)
    assert proc.returncode == 2 and "usage: qlgate" in proc.stderr


@pytest.mark.parametrize(
    "args, usage, message",
    [
        (["run", "--frmat", "json", "-e", "1"], "usage: qlgate run ", "--frmat (did you mean --format?)"),
        (
            ["jobs", "submit", "x.ql", "--prority=3"],
            "usage: qlgate jobs submit ",
            "--prority=3 (did you mean --priority?)",
        ),
        (["run", "a.ql", "b.ql"], "usage: qlgate run ", "unrecognized arguments: b.ql"),
    ],
)
def test_an_unknown_option_of_a_command_gets_its_usage_and_the_option_meant(args, usage, message):
    proc = qlgate(*args)
    assert proc.returncode == 2 and proc.stderr.startswith(usage) and message in proc.stderr


def test_an_empty_script_prints_its_value_and_says_it_has_no_statement():
    proc = qlgate("run", "-e", "-- only a comment")
    assert proc.returncode == 0 and proc.stdout == "{}\n"
    assert "<-e>: the script has no statement (only comments or create table); its value is {}" in proc.stderr
    assert "no statement" not in qlgate("run", "-e", "a = 1;").stderr


def test_parsing_the_command_line_imports_only_the_command_modules():
    """``qlgate run -e`` pays for the parser of every command: past what ``import
    qlgate`` brings (its public API), the command modules import the standard
    library only, until a command runs — no gateway, cluster client or job model."""
    probe = (
        "import sys, qlgate; before = set(sys.modules); from qlgate.cli import build_parser; "
        "build_parser(); print(' '.join(sorted(set(sys.modules) - before)))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert "qlgate.cli" in loaded
    ours = {
        "qlgate.cli",
        "qlgate.jobs",
        "qlgate.jobs.cluster",
        "qlgate.server",
        "qlgate.server.serve",
    }
    beyond = [m for m in loaded if m.startswith("qlgate") and m not in ours and not m.startswith("qlgate.commands")]
    assert not beyond
    assert not [m for m in loaded if m.split(".")[0] in ("aiohttp", "kazoo", "psycopg", "asyncio", "multiprocessing")]


def run_with(*args: str, cwd: Path | None = None, index: bool = True, cache: Path) -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "QLGATE_TABLE_INDEX": "on" if index else "off"}
    return subprocess.run(
        [sys.executable, "-m", "qlgate", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def test_run_answers_the_same_through_the_table_index(tmp_path):
    """``qlgate run`` compiles only the tables its script names (the table index): what
    it prints — result, warnings, errors — is what a full load of the tree gives."""
    tables = tmp_path / "tables"
    (tables / "shop").mkdir(parents=True)
    (tables / "shop" / "search.ql").write_text("create table shop.search on select get from 'http://127.0.0.1:1/s'")
    (tables / "shop" / "other.ql").write_text("create table other.search on select get from 'http://127.0.0.1:1/o'")
    (tables / "a_bad.ql").write_text("create table bad on select get frm 'x'")
    (tables / "patched.ql").write_text(
        "create table patched on select get from 'http://127.0.0.1:1/p' using patch 'gone.py'"
    )
    cache = tmp_path / "cache"
    patched = "patched.ql:1:1: patch module 'gone.py' not found"
    for script, loads_patched in [
        ("return describe shop.search;", False),
        ("x = select * from patched; return 1;", True),
        ("return select * from search;", False),  # ambiguous
        ("return select * from nosuch;", False),
        ("return show tables;", True),
    ]:
        full = run_with("run", "-e", script, "--tables", str(tables), index=False, cache=cache)
        assert patched in full.stderr
        for _ in range(2):  # the first writes the index, the second compiles through it
            indexed = run_with("run", "-e", script, "--tables", str(tables), cache=cache)
            assert (indexed.returncode, indexed.stdout) == (full.returncode, full.stdout)
            # the same warnings and error, but a table's load problem only when the script uses it
            expected = [line for line in full.stderr.splitlines() if loads_patched or patched not in line]
            assert indexed.stderr.splitlines() in (expected, full.stderr.splitlines())
    assert list((cache / "qlgate" / "tables").glob("*.json"))
    # a table's load problem is told when a script names it; a file that does not parse, always
    quiet = run_with("run", "-e", "return 1;", "--tables", str(tables), cache=cache)
    assert quiet.stdout.strip() == "1" and quiet.stderr.count("warning:") == 1 and "a_bad.ql" in quiet.stderr


def test_run_of_an_emulator_table_from_the_repository_root_answers_as_before(tmp_path):
    root = Path(__file__).resolve().parents[1]
    script = "return select searchResult.item[0].title from ebay.finding.findItemsByKeywords where keywords = 'camera' limit 1;"
    full = run_with("run", "-e", script, cwd=root, index=False, cache=tmp_path)
    indexed = run_with("run", "-e", script, cwd=root, cache=tmp_path)
    again = run_with("run", "-e", script, cwd=root, cache=tmp_path)
    assert full.returncode == 0, full.stderr
    (title,) = json.loads(full.stdout)
    assert "Camera" in title and full.stdout == indexed.stdout == again.stdout


def test_run_of_a_script_that_calls_nothing_imports_no_http_stack_and_builds_no_emulator():
    """``qlgate run -e 'return 1;'`` from the repository root (eBay emulated): aiohttp,
    Jinja2 and the emulator are imported when a table calls for them, not before."""
    root = Path(__file__).resolve().parents[1]
    probe = (
        "import sys; from qlgate.cli import main; code = main(['run', '-e', 'return 1;']); "
        "print(' '.join(sorted(sys.modules)), file=sys.stderr); sys.exit(code)"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr
    loaded = set(done.stderr.split())
    assert "qlgate_ebay_emulator.lazy" in loaded  # the config asked for the emulator
    assert not {"aiohttp", "jinja2", "qlgate_ebay_emulator.app", "qlgate.http.client", "lxml"} & loaded
