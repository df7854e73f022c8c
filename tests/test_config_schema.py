"""The config schema (qlgate/config_schema.py): loading refuses typos and wrong
types with the JSON path and the file, keeps the deployer's own sections, and
``qlgate config check``/``show`` and docs/configuration.md come from it."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from qlgate.cache.settings import CacheSettings
from qlgate.commands import config as config_command
from qlgate.config import MASK, Config, Settings
from qlgate.config_docs import markdown
from qlgate.config_schema import KEYS, effective, validate
from qlgate.engine.backoff import BackoffSettings
from qlgate.errors import ConfigError
from qlgate.jobs.archive import DEFAULT_MAX_RESULT_BYTES
from qlgate.jobs.cluster import cluster_settings
from qlgate.jobs.settings import JobsSettings
from qlgate.server.policy import GatewayPolicy

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, data: dict) -> Path:
    file = tmp_path / "deploy.json"
    file.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return file


@pytest.mark.parametrize(
    ("data", "path", "meant"),
    [
        ({"maxNestedRequest": 5}, "maxNestedRequest", "maxNestedRequests"),
        ({"gateway": {"adhok": {"enabled": False}}}, "gateway.adhok", "adhoc"),
        ({"cache": {"urll": "redis://127.0.0.1:6379/0"}}, "cache.urll", "url"),
        ({"timeout": {"ebay": 1000}}, "timeout", "timeouts"),
        # two neighbouring letters swapped: difflib's ratio alone rates "jbos" under the cutoff
        ({"jbos": {"slots": 2}}, "jbos", "jobs"),
        ({"cache": {"maxBtyes": 1024}}, "cache.maxBtyes", "maxBytes"),
    ],
)
def test_a_near_miss_of_a_declared_key_is_refused_with_its_path_the_file_and_a_suggestion(tmp_path, data, path, meant):
    file = write(tmp_path, data)

    with pytest.raises(ConfigError) as caught:
        Config.load(file, env={})

    message = caught.value.message
    assert str(file) in message and f"{path}: unknown key; did you mean {meant}?" in message
    assert caught.value.details["path"] == path
    where = (caught.value.line, caught.value.column)
    assert message.startswith(f"config {file}:{where[0]}:{where[1]}: ") and where[0] >= 2


def test_a_refused_config_file_is_pointed_at_line_and_column(tmp_path):
    file = tmp_path / "deploy.json"
    file.write_text(
        '{\n  "shop": {"site": "x"},\n  "gateway": {\n    "auth": {"keys": [\n'
        '      {"name": "a", "key": "k", "scopes": ["query"]},\n'
        '      {"name": 7}]}}\n}\n',
        encoding="utf-8",
    )

    with pytest.raises(ConfigError) as caught:
        Config.load(file, env={})

    assert caught.value.message == f"config {file}:6:8: gateway.auth.keys[1].name: must be string, not integer (7)"
    assert (caught.value.line, caught.value.column) == (6, 8)


def test_tables_and_auth_are_checked_where_they_are_used_and_by_config_check():
    data = {
        "auth": {"shop": {"type": "oauth2-client-credentials", "clientSecet": "x", "scopes": 5}},
        "tables": {"ebay": {"trading": {"eBayAuthTokn": "x"}, "rest": "x"}},
    }

    assert Config.from_dict(data, env={}).data == data  # an entry no table uses stops no gateway
    assert [str(p) for p in validate(data, deep=True)] == [
        "auth.shop.clientSecet: unknown key; did you mean clientSecret?",
        "auth.shop.scopes: must be array or string, not integer (5)",
        "tables.ebay.trading.eBayAuthTokn: unknown key; did you mean eBayAuthToken?",
        "tables.ebay.rest: must be object, not string (text of 1 characters)",
    ]


def test_an_unknown_key_of_a_closed_section_is_refused_even_far_from_any_name():
    with pytest.raises(ConfigError, match=r"backoff\.colour: unknown key \(known: failures, maxDelay"):
        Config.from_dict({"backoff": {"colour": "red"}}, env={})


@pytest.mark.parametrize(
    ("data", "path", "wanted"),
    [
        ({"maxFanOut": "200"}, "maxFanOut", "integer"),
        ({"gateway": {"maxBodyBytes": True}}, "gateway.maxBodyBytes", "integer"),
        ({"gateway": {"adhoc": {"allowedHosts": "api.example.com"}}}, "gateway.adhoc.allowedHosts", "array or null"),
        ({"udfPaths": ["udfs", 3]}, "udfPaths[1]", "string"),
        ({"gateway": {"auth": {"keys": [{"name": 7}]}}}, "gateway.auth.keys[0].name", "string"),
        ({"enableConsole": "no"}, "enableConsole", "boolean"),
    ],
)
def test_a_declared_key_of_the_wrong_type_is_refused_naming_its_path(data, path, wanted):
    with pytest.raises(ConfigError) as caught:
        Config.from_dict(data, env={})

    assert f"{path}: must be {wanted}" in caught.value.message


def test_a_limit_below_its_minimum_is_refused_rather_than_silently_defaulted():
    with pytest.raises(ConfigError, match=r"maxFanOut: must be at least 1, not 0"):
        Config.from_dict({"maxFanOut": 0}, env={})


def test_a_wrong_type_never_shows_the_string_it_holds():
    with pytest.raises(ConfigError) as caught:
        Config.from_dict({"maxFanOut": "${SECRET}"}, env={"SECRET": "hunter2-very-secret"})

    assert "hunter2" not in json.dumps(caught.value.to_dict())
    assert "text of 19 characters" in caught.value.message


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (
            {"ebay": {"environment": "prod"}},
            'ebay.environment: must be one of auto, emulator, sandbox, production, not "prod"',
        ),
        ({"maxFanOut": "200"}, 'maxFanOut: must be integer, not string ("200")'),
        ({"cache": {"prefix": 7, "backend": "x" * 100}}, 'not "' + "x" * 60 + '…"'),
    ],
)
def test_an_error_quotes_a_value_that_is_no_secret(data, shown):
    """Before, every string was "text of N characters", the value the deployer has to find
    and fix included."""
    with pytest.raises(ConfigError) as caught:
        Config.from_dict(data, env={})

    assert shown in caught.value.message + str(caught.value.details.get("problems"))


def test_an_error_never_quotes_a_string_that_holds_a_secret():
    data = {"jobs": {"maxQueue": "postgresql://jobs:s3cretpw@db/jobs"}, "ebay": {"environment": "${EBAY_TOKEN}"}}

    with pytest.raises(ConfigError) as caught:
        Config.from_dict(data, env={"EBAY_TOKEN": "tok-0123456789"})

    shown = json.dumps(caught.value.to_dict())
    assert "s3cretpw" not in shown and "tok-0123456789" not in shown
    assert "text of 34 characters" in shown and "text of 14 characters" in shown


@pytest.mark.parametrize(
    "data",
    [
        {"gateway": {"auth": {"keys": {"ops": "${KEY}"}}}},  # a map where a list belongs
        {"cache": ["${KEY}"]},  # a list where an object belongs
        {"ebay": {"environment": "${KEY}"}},  # not one of the choices
    ],
)
def test_no_error_shows_what_a_wrongly_shaped_value_holds(data):
    with pytest.raises(ConfigError) as caught:
        Config.from_dict(data, env={"KEY": "s3cr3t-0123456789abcdef"})
    assert "s3cr3t" not in json.dumps(caught.value.to_dict()), caught.value.message


def test_the_deployers_own_sections_and_keys_stay_allowed():
    data = {
        "weather": {"base": "https://api.weather.example", "units": 1},
        "tables": {"weather": {"base": "https://api.weather.example"}, "ebay": {"trading": {"mine": 1}}},
        "ebay": {"siteid": "0", "version": 765},
        "shop": {"maxFanOut": "anything"},  # not declared there: not looked into
        "auth": {"shop": {"type": "oauth2-client-credentials", "audience": "x"}},
    }

    assert validate(data) == []
    assert Config.from_dict(data, env={}).data["weather"]["base"] == "https://api.weather.example"


def test_the_shipped_config_and_an_emulator_config_are_valid():
    from qlgate_ebay_emulator.endpoints import emulator_config

    assert Config.load(ROOT / "config" / "dev.json", env={}).settings.max_fan_out == 1000
    assert validate(emulator_config("http://127.0.0.1:1")) == []


def test_every_problem_is_listed_when_there_are_several(tmp_path):
    with pytest.raises(ConfigError) as caught:
        Config.from_dict({"maxNestedRequest": 1, "cache": {"urll": "x"}}, env={})

    assert "(and 1 more" in caught.value.message
    assert caught.value.details["problems"] == [
        "maxNestedRequest: unknown key; did you mean maxNestedRequests?",
        "cache.urll: unknown key; did you mean url?",
    ]


def test_the_declared_defaults_are_the_codes_defaults():
    declared = {key.path: key.default for key in KEYS}
    settings, policy, cache, backoff = Settings(), GatewayPolicy(), CacheSettings(), BackoffSettings()

    assert declared["maxNestedRequests"] == settings.max_nested_requests
    assert declared["maxFanOut"] == settings.max_fan_out
    assert declared["maxResponseLength"] == settings.max_response_bytes
    assert declared["defaultTimeout"] == settings.default_timeout_ms
    assert declared["scriptBudget"] == settings.script_budget
    assert declared["requestIdHeader"] == settings.request_id_header
    assert declared["connection"] == settings.connection
    assert declared["gateway.maxBodyBytes"] == policy.max_body_bytes
    assert declared["gateway.maxScriptLength"] == policy.max_script_length
    assert declared["gateway.requestTimeoutMs"] == policy.request_timeout_ms
    assert declared["cache.maxBytes"] == cache.max_bytes
    assert declared["cache.prefix"] == cache.prefix
    assert declared["cache.lockMs"] == cache.lock_ms and declared["cache.waitMs"] == cache.wait_ms
    assert declared["backoff.failures"] == backoff.failures
    assert declared["backoff.retryAfterMax"] == backoff.retry_after_max_ms
    # the docs said 16 MiB while the cluster read 64 MiB when the key was left out
    timing = cluster_settings(None)
    assert declared["jobs.maxResultBytes"] == timing["maxResultBytes"] == DEFAULT_MAX_RESULT_BYTES
    assert declared["jobs.callTimeout"] == timing["callTimeout"]
    assert declared["jobs.maxRunSeconds"] == timing["maxRunSeconds"] == JobsSettings().max_run_seconds


def test_effective_fills_declared_defaults_and_keeps_what_is_set():
    out = effective({"gateway": {"jsonp": True}, "weather": {"base": "x"}})

    assert out["gateway"]["jsonp"] is True and out["gateway"]["maxBodyBytes"] == 1_048_576
    assert out["maxFanOut"] == 1000 and out["cache"]["backend"] == "memory"
    assert out["weather"] == {"base": "x"}


def test_docs_configuration_md_is_generated_from_the_schema():
    committed = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")

    assert committed == markdown(), "stale: run python -m qlgate.config_docs --markdown > docs/configuration.md"
    for key in KEYS:
        if key.path and len(key.parts) > 1:
            assert f"`{key.path.replace('.[]', '[]')}`" in committed


# ---------------------------------------------------------------- qlgate config check / show


def run_config(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    config_command.add_arguments(parser)
    return config_command.run(parser.parse_args(list(argv)))


def test_config_check_lists_every_problem_and_exits_1(tmp_path, capsys):
    file = write(
        tmp_path,
        {"maxNestedRequest": 1, "gateway": {"adhok": {}}, "weather": {"base": "x"}, "auth": {"a": {"tokenUlr": "x"}}},
    )

    assert run_config("check", "--config", str(file)) == 1

    out, err = capsys.readouterr()
    assert out.splitlines() == [  # file:line:column, as qlgate check points into tables
        f"{file}:2:3: maxNestedRequest: unknown key; did you mean maxNestedRequests?",
        f"{file}:4:5: gateway.adhok: unknown key; did you mean adhoc?",
        f"{file}:11:7: auth.a.tokenUlr: unknown key; did you mean tokenUrl?",
    ]
    assert "3 error(s)" in err


def test_config_check_reports_what_a_settings_reader_refuses(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("QLGATE_TEST_PROXY_PW", "pw-secret-123")
    file = write(tmp_path, {"cache": {"url": "http://127.0.0.1:6379"}, "proxy": "http://u:${QLGATE_TEST_PROXY_PW}@"})

    assert run_config("check", "--config", str(file)) == 1

    out = capsys.readouterr().out
    assert "proxy" in out and "pw-secret-123" not in out


def test_config_check_of_a_file_that_is_not_json_gives_the_position(tmp_path, capsys):
    file = tmp_path / "broken.json"
    file.write_text('{"maxFanOut": 7,\n  oops}', encoding="utf-8")

    assert run_config("check", "--config", str(file)) == 1

    assert "line 2 column 3" in capsys.readouterr().out


def test_config_check_of_a_good_file_exits_0(tmp_path, capsys):
    file = write(tmp_path, {"maxFanOut": 7, "weather": {"base": "https://api.weather.example"}})

    assert run_config("check", "--config", str(file)) == 0
    assert capsys.readouterr().err.strip().endswith(": ok")


def test_config_show_fills_defaults_and_masks_secrets(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("QLGATE_TEST_CERT", "cert-value-9876")
    file = write(
        tmp_path,
        {"tables": {"ebay": {"trading": {"certname": "${QLGATE_TEST_CERT}", "eBayAuthToken": "tok-in-file-42"}}}},
    )

    assert run_config("show", "--config", str(file)) == 0

    out = capsys.readouterr().out
    shown = json.loads(out)
    assert shown["tables"]["ebay"]["trading"] == {"certname": MASK, "eBayAuthToken": MASK}
    assert shown["maxNestedRequests"] == 50 and shown["gateway"]["adhoc"]["enabled"] is True
    assert "cert-value-9876" not in out and "tok-in-file-42" not in out


def test_config_show_masks_passwords_in_urls_and_variables_named_like_keys(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("WEATHER_KEY", "wk-7777777")
    file = write(
        tmp_path,
        {
            "cache": {"url": "redis://:hunter2pass@127.0.0.1:6379/0"},
            "jobs": {"database": "postgresql://jobs:s3cretpw@127.0.0.1/jobs"},
            "weather": {"base": "https://api.weather.example/?k=${WEATHER_KEY}"},
        },
    )

    assert run_config("show", "--config", str(file)) == 0

    out = capsys.readouterr().out
    assert not {"hunter2pass", "s3cretpw", "wk-7777777"} & set(re.findall(r"[\w-]+", out)), out
    assert json.loads(out)["weather"]["base"] == f"https://api.weather.example/?k={MASK}"


def test_config_show_of_an_invalid_file_is_a_config_error(tmp_path):
    file = write(tmp_path, {"cache": {"urll": "x"}})

    with pytest.raises(ConfigError, match=r"cache\.urll"):
        run_config("show", "--config", str(file))


def test_qlgate_config_is_a_command_of_the_cli(tmp_path):
    import subprocess
    import sys

    file = write(tmp_path, {"cache": {"urll": "x"}})
    checked = subprocess.run(
        [sys.executable, "-m", "qlgate", "config", "check", "--config", str(file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (checked.returncode, checked.stdout) == (1, f"{file}:3:5: cache.urll: unknown key; did you mean url?\n")
    shown = subprocess.run(
        [sys.executable, "-m", "qlgate", "config", "show", "--config", str(file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 2 and json.loads(shown.stderr.splitlines()[-1])["type"] == "ConfigError"


def test_config_check_of_a_file_that_does_not_exist_is_a_usage_error_like_show(tmp_path):
    from qlgate.commands.arguments import UsageError

    for action in ("check", "show"):
        with pytest.raises((UsageError, ConfigError)) as caught:
            run_config(action, "--config", str(tmp_path / "nope.json"))
        assert "nope.json" in caught.value.message


def test_config_show_adds_no_section_whose_presence_changes_the_gateway():
    shown = effective({"maxFanOut": 7})
    assert "ebay" not in shown and "auth" not in shown.get("gateway", {})
    assert effective({"ebay": {}})["ebay"]["environment"] == "auto"


# ---------------------------------------------------------------- typed reads (qlgate/config_values.py)


@pytest.mark.parametrize(
    ("read", "data", "path", "problem"),
    [
        (GatewayPolicy.from_config, {"gateway": {"maxBodyBytes": "1mb"}}, "gateway.maxBodyBytes", "must be integer"),
        (GatewayPolicy.from_config, {"gateway": {"jsonp": "yes"}}, "gateway.jsonp", "must be boolean"),
        (CacheSettings.from_config, {"cache": {"waitMs": -1}}, "cache.waitMs", "must be at least 0"),
        (CacheSettings.from_config, {"cache": {"negative": float("inf")}}, "cache.negative", "must be number"),
        (BackoffSettings.from_config, {"backoff": {"failures": 0}}, "backoff.failures", "must be at least 1"),
        (Settings.from_config, {"udfPaths": ["udfs", 3]}, "udfPaths[1]", "must be string, not integer"),
    ],
)
def test_every_settings_class_refuses_a_bad_value_naming_its_path(read, data, path, problem):
    """Each settings class read its numbers its own way: the gateway's took a bad one for
    its default, the cache's and back-off's refused it in words of their own, without the
    path. Now each reads through the declared keys, the way loading checks them."""
    with pytest.raises(ConfigError) as caught:
        read(data)

    assert caught.value.message.startswith(f"config {path}: {problem}")
    assert caught.value.details["path"] == path


def test_the_settings_of_an_empty_config_are_the_declared_defaults():
    assert GatewayPolicy.from_config({}) == GatewayPolicy()
    assert CacheSettings.from_config({}) == CacheSettings()
    assert BackoffSettings.from_config({}) == BackoffSettings()
    assert Settings.from_config({}) == Settings()
    assert GatewayPolicy().max_connections == next(k.default for k in KEYS if k.path == "gateway.maxConnections")
