"""``qlgate check`` against the config and the routes' inputs, and what
``qlgate run`` says of variables and ``--var`` values (issue 19, "errors that
teach"): each problem as FILE:LINE:COL with the name meant."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from qlgate.commands import authoring, script
from qlgate.commands.arguments import UsageError, parse_var
from qlgate.commands.report import exit_status

ROOT = Path(__file__).resolve().parents[1]

TABLE = """-- Forecast by city: {config.weather.in_a_comment} is not read
create table weather.forecast
  on select get from "{config.weather.bse}/v1/forecast?city={^city}"
     using headers 'X-Key' = "{config.weather.key}"
"""

ROUTES = {
    "forecast.ql": 'f = select * from weather.forecast where city = "{cty}";\n'
    "return \"{f}\" via route '/forecast?city={city}' using method get;\n",
    "ok.ql": "return \"{id} {config.weather.base}\" via route '/things/{id}' using method get;\n",
    "post.ql": "return \"{fromBody}\" via route '/things' using method post;\n",
}


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "weather.ql").write_text(TABLE, encoding="utf-8")
    (tmp_path / "routes").mkdir()
    for name, text in ROUTES.items():
        (tmp_path / "routes" / name).write_text(text, encoding="utf-8")
    (tmp_path / "config.json").write_text(json.dumps({"weather": {"base": "http://127.0.0.1:9", "key": "k"}}))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    authoring.add_check_arguments(parser)
    return authoring.check(parser.parse_args(list(argv)))


def test_check_reports_a_table_a_route_names_that_no_file_defines(workspace, capsys):
    (workspace / "routes" / "typo.ql").write_text(
        'x = select * from weather.forecast where city = "{city}";\n'
        'y = select * from weather.forcast where city = "{city}";\n'
        "return select * from x via route '/typo/{city}' using method get;\n",  # x: a variable, not a table
        encoding="utf-8",
    )
    assert check("--tables", "tables", "--routes", "routes", "--config", "config.json") == 1

    out = capsys.readouterr().out
    assert "routes/typo.ql:2:19: No such table weather.forcast; did you mean weather.forecast?" in out.splitlines()
    assert "typo.ql:1:" not in out and "typo.ql:3:" not in out


def run_script(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    script.add_arguments(parser)
    args = parser.parse_args([*argv, "--tables", "tables", "--routes", "routes", "--config", "config.json"])
    if not hasattr(args, "format"):
        args.format = "json"
    return script.run(args)


def test_check_reports_config_tokens_and_route_variables_as_file_line_col(workspace, capsys):
    assert check("--tables", "tables", "--routes", "routes", "--config", "config.json") == 1

    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "routes/forecast.ql:1:50: 'cty' is never assigned and is not an input of route /forecast?city={city}; "
        "did you mean 'city'?",
        "tables/weather.ql:3:23: {config.weather.bse} names nothing in the config; did you mean {config.weather.base}?",
    ]
    assert "2 error(s)" in err


def test_check_resolves_against_the_config_it_is_given(workspace, capsys):
    (workspace / "other.json").write_text(json.dumps({"weather": {"bse": "http://127.0.0.1:9"}}))

    check("--tables", "tables", "--routes", "routes", "--config", "other.json")

    out = capsys.readouterr().out
    assert "{config.weather.bse} names nothing" not in out
    assert "{config.weather.key} names nothing in the config" in out
    assert (
        "routes/ok.ql:1:14: {config.weather.base} names nothing in the config; did you mean {config.weather.bse}?"
        in out
    )


def test_the_shipped_tables_and_routes_resolve_against_the_shipped_config(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("EBAY_ENVIRONMENT", raising=False)

    assert check("--tables", "tables", "--routes", "routes", "--config", "config/dev.json") == 0
    assert capsys.readouterr().out == ""


def test_run_warns_of_a_variable_never_assigned_with_the_name_meant(workspace, capsys):
    assert run_script("-e", 'name = "x"; return "{name}-{nme}";') == 0

    out, err = capsys.readouterr()
    assert json.loads(out) == "x-{nme}"
    assert "warning: <-e>:1:28: 'nme' is never assigned and no --var gives it; did you mean 'name'?" in err


def test_a_case_only_typo_is_warned_of_once_not_by_the_compiler_again(workspace, capsys):
    assert run_script("-e", 'name = "x"; a = "{Name}"; return a;') == 0

    _, err = capsys.readouterr()
    assert err.count("'Name' is never assigned") == 1, err


def test_run_does_not_warn_of_a_variable_a_var_gives(workspace, capsys):
    assert run_script("-e", 'return "{keywords}";', "--var", "keywords=camera") == 0

    out, err = capsys.readouterr()
    assert json.loads(out) == "camera" and "never assigned" not in err


def test_run_strict_refuses_the_script_with_a_usage_error(workspace, capsys):
    status = run_script("-e", 'name = "x"; return "{nme}";', "--strict")

    assert status == 2  # usage (commands/report.py)
    out, err = capsys.readouterr()
    assert out == ""
    error = json.loads(err.strip().splitlines()[-1])
    assert error["type"] == "UsageError" and "'nme' is never assigned" in error["error"]


@pytest.mark.parametrize(
    ("value", "where"),
    [('{"a": 1,}', "line 1 column 9"), ("[1, 2", "line 1 column 6"), ('"open', "line 1 column 1")],
)
def test_a_var_that_looks_like_json_but_does_not_parse_is_a_usage_error(value, where):
    with pytest.raises(UsageError) as caught:
        parse_var(f"filter={value}")

    assert caught.value.message.startswith("--var filter: the value looks like JSON but does not parse")
    assert where in caught.value.message and value not in caught.value.message
    assert exit_status(caught.value) == 2


@pytest.mark.parametrize(
    ("text", "value"), [("q=camera", "camera"), ("n=5", 5), ('o={"a": [1]}', {"a": [1]}), ("t=a{b", "a{b")]
)
def test_a_var_that_is_json_or_plain_text_is_taken_as_it_is(text, value):
    assert parse_var(text)[1] == value
