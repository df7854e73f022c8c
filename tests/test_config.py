"""The config document (spec §15): loading, engine settings and their defaults,
``${NAME}`` substitution, and the secrets that must never leave the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qlgate.config import MASK, Config, Secrets, Settings
from qlgate.errors import ConfigError, QlError

# ---------------------------------------------------------------- loading


def test_from_dict_keeps_the_document_as_the_scripts_see_it():
    config = Config.from_dict({"ebay": {"siteid": "0", "version": 765}}, env={})

    assert config.data == {"ebay": {"siteid": "0", "version": 765}}
    assert config.path is None


def test_load_reads_a_json_file_and_remembers_where_it_came_from(tmp_path: Path):
    file = tmp_path / "dev.json"
    file.write_text(json.dumps({"maxFanOut": 7, "ebay": {"siteid": "0"}}), encoding="utf-8")

    config = Config.load(file, env={})

    assert config.data["ebay"] == {"siteid": "0"}
    assert config.settings.max_fan_out == 7
    assert config.path == file


def test_load_without_a_path_gives_an_empty_config_with_default_settings():
    config = Config.load(None, env={})

    assert config.data == {}
    assert config.settings == Settings()


def test_load_of_a_missing_file_is_a_config_error_naming_the_file(tmp_path: Path):
    missing = tmp_path / "absent.json"

    with pytest.raises(ConfigError, match=r"cannot read config file .*absent\.json") as caught:
        Config.load(missing, env={})

    assert caught.value.status == 400
    assert isinstance(caught.value, QlError)


def test_load_of_a_file_that_is_not_json_is_a_config_error(tmp_path: Path):
    file = tmp_path / "broken.json"
    file.write_text("{maxFanOut: 7", encoding="utf-8")

    with pytest.raises(ConfigError, match=r"broken\.json is not valid JSON"):
        Config.load(file, env={})


def test_load_of_json_that_is_not_an_object_is_a_config_error(tmp_path: Path):
    file = tmp_path / "list.json"
    file.write_text("[1, 2]", encoding="utf-8")

    with pytest.raises(ConfigError, match=r"list\.json must hold a JSON object"):
        Config.load(file, env={})


# ---------------------------------------------------------------- settings


def test_settings_read_their_camel_case_keys():
    settings = Settings.from_config(
        {
            "maxNestedRequests": 4,
            "maxFanOut": 20,
            "defaultTimeout": 2500,
            "scriptBudget": 1000,
            "requestIdHeader": "x-request-id",
            "connection": "close",
            "udfPaths": ["udfs"],
            "patchPaths": ["patches"],
        }
    )

    assert settings.max_nested_requests == 4
    assert settings.max_fan_out == 20
    assert settings.default_timeout_ms == 2500
    assert settings.script_budget == 1000
    assert settings.request_id_header == "x-request-id"
    assert settings.connection == "close"
    assert settings.udf_paths == [Path("udfs")]
    assert settings.patch_paths == [Path("patches")]


def test_max_response_size_is_an_alias_of_max_response_length():
    assert Settings.from_config({"maxResponseSize": 4096}).max_response_bytes == 4096


def test_max_response_length_wins_over_its_alias():
    settings = Settings.from_config({"maxResponseLength": 1024, "maxResponseSize": 4096})

    assert settings.max_response_bytes == 1024


def test_a_setting_left_out_takes_its_declared_default():
    settings = Settings.from_config({})

    assert settings == Settings()
    assert (settings.max_fan_out, settings.script_budget, settings.max_response_bytes) == (1000, 5_000_000, 10_000_000)


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        ("big", "must be integer, not string"),
        (0, "must be at least 1, not 0"),
        (-5, "must be at least 1, not -5"),
        (True, "must be integer, not boolean"),
        (None, "must be integer, not null"),
        ([100], "must be integer, not array"),
    ],
)
def test_a_limit_that_is_not_a_positive_number_is_refused_naming_it(bad, problem):
    """Before, a settings class read its numbers leniently: a bad one given to it directly
    (not through a loaded document) was silently its default."""
    with pytest.raises(ConfigError, match=f"config maxFanOut: {problem}") as caught:
        Settings.from_config({"maxFanOut": bad})
    assert caught.value.details["path"] == "maxFanOut"


@pytest.mark.parametrize(("value", "expected"), [(False, False), (True, True)])
def test_params_from_request_is_turned_off_by_json_false(value, expected):
    assert Settings.from_config({"paramsFromRequest": value}).params_from_request is expected


@pytest.mark.parametrize("value", ["false", 0])
def test_params_from_request_that_is_no_boolean_is_refused(value):
    with pytest.raises(ConfigError, match="config paramsFromRequest: must be boolean"):
        Settings.from_config({"paramsFromRequest": value})


def test_timeout_for_a_table_uses_its_longest_dotted_prefix():
    settings = Settings.from_config({"timeouts": {"ebay": 30000, "ebay.trading": 60000}})

    assert settings.timeout_for("ebay.trading.GetItem") == 60000
    assert settings.timeout_for("ebay.finding.findItemsByKeywords") == 30000
    assert settings.timeout_for("ebay") == 30000


def test_timeout_for_an_unlisted_table_is_the_default_timeout():
    settings = Settings.from_config({"defaultTimeout": 1500, "timeouts": {"ebay": 30000}})

    assert settings.timeout_for("ebayx.items") == 1500  # a prefix is a whole dotted segment
    assert settings.timeout_for("slow") == 1500


@pytest.mark.parametrize(("entry", "problem"), [("never", "must be integer, not string"), (0, "must be at least 1")])
def test_a_timeout_that_is_not_a_positive_number_is_refused_naming_its_table(entry, problem):
    with pytest.raises(ConfigError, match=rf'config timeouts\["ebay.trading"\]: {problem}'):
        Settings.from_config({"timeouts": {"ebay": 30000, "ebay.trading": entry}})


def test_a_section_that_is_no_object_is_refused_when_a_key_of_it_is_read():
    from qlgate.config_values import ConfigView

    with pytest.raises(ConfigError, match="config gateway: must be object, not integer"):
        ConfigView({"gateway": 5}).integer("gateway.maxBodyBytes")
    with pytest.raises(LookupError, match="not declared"):
        ConfigView({}).integer("gateway.maxBodyByte")


# ---------------------------------------------------------------- environment and secrets


def test_environment_variables_are_substituted_with_optional_defaults():
    config = Config.from_dict(
        {"upstream": "${UPSTREAM:-https://api.example}", "site": "${SITE}", "missing": "${NOPE}", "n": 3},
        env={"SITE": "77"},
    )

    assert config.data == {"upstream": "https://api.example", "site": "77", "missing": "", "n": 3}


def test_substitution_reads_the_process_environment_when_no_env_is_given(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("QLGATE_TEST_SITE", "101")

    assert Config.from_dict({"site": "${QLGATE_TEST_SITE}"}).data == {"site": "101"}


@pytest.mark.parametrize(
    "key", ["token", "eBayAuthToken", "clientSecret", "password", "certname", "apiKey", "appid", "devname", "key"]
)
def test_a_string_under_a_secret_looking_key_is_a_secret(key):
    config = Config.from_dict({key: "value-1234"}, env={})

    assert config.secrets.values == ["value-1234"]


@pytest.mark.parametrize("key", ["keys", "keywords", "siteid", "gateway", "version"])
def test_a_string_under_an_ordinary_key_is_not_a_secret(key):
    assert Config.from_dict({"shop": {key: "value-1234"}}, env={}).secrets.values == []


def test_an_environment_value_is_a_secret_when_its_variable_name_looks_secret():
    config = Config.from_dict(
        {"login": "${EBAY_AUTH_TOKEN}", "site": "${EBAY_SITE}"},
        env={"EBAY_AUTH_TOKEN": "tok-9876", "EBAY_SITE": "site-0000"},
    )

    assert config.secrets.values == ["tok-9876"]


def test_secrets_shorter_than_four_characters_are_not_masked():
    secrets = Secrets({"abc", "abcd"})

    assert secrets.values == ["abcd"]
    assert secrets.mask("abc abcd") == f"abc {MASK}"


def test_mask_hides_a_secret_as_written_and_as_a_url_encodes_it():
    secrets = Secrets({"s3/cr+t x"})

    text = "raw=s3/cr+t x path=s3%2Fcr%2Bt%20x form=s3%2Fcr%2Bt+x"

    assert secrets.mask(text) == f"raw={MASK} path={MASK} form={MASK}"


def test_mask_bytes_masks_an_answers_utf8_as_mask_masks_its_text():
    secrets = Secrets({"s3/cr+t x", "pässwörd-9", "hunter22"})
    text = 'raw=s3/cr+t x url=s3%2Fcr%2Bt%20x ü=pässwörd-9 json="hunter22" "pässwörd-99"'

    assert secrets.mask_bytes(text.encode()) == secrets.mask(text).encode()
    assert secrets.mask_bytes(text.encode()).count(MASK.encode()) == 5
    assert Secrets().mask_bytes(b"untouched") == b"untouched"


def test_mask_value_masks_strings_anywhere_in_json_keys_included():
    secrets = Secrets({"hunter22"})

    masked = secrets.mask_value({"hunter22": ["pw=hunter22", 7, None], "ok": True})

    assert masked == {MASK: [f"pw={MASK}", 7, None], "ok": True}


def test_a_derived_config_keeps_the_secrets_it_is_given():
    parent = Config.from_dict({"token": "${TOKEN}"}, env={"TOKEN": "from-env-5555"})

    child = Config.from_dict({"site": "0"}, env={}, secrets=parent.secrets)

    assert child.secrets.mask("sent from-env-5555") == f"sent {MASK}"


@pytest.mark.parametrize(
    ("data", "named"),
    [({"udfPaths": "abc"}, "udfPaths"), ({"patchPaths": 5}, "patchPaths"), ({"timeouts": [1]}, "timeouts")],
)
def test_a_setting_of_the_wrong_shape_is_a_typed_error_that_names_it(data, named):
    with pytest.raises(ConfigError, match=named):
        Config.from_dict(data)


def test_a_config_file_that_is_not_utf8_is_a_typed_error(tmp_path):
    file = tmp_path / "latin1.json"
    file.write_bytes('{"name": "caf\xe9"}'.encode("latin-1"))
    with pytest.raises(ConfigError, match="not UTF-8"):
        Config.load(file)


def test_the_jobs_database_from_the_environment_counts_when_the_config_names_none(monkeypatch, tmp_path):
    """``jobs.database`` has a declared default, which must not hide $QLGATE_JOBS_DATABASE:
    the typed settings keep only what the config writes."""
    from qlgate.jobs.cluster import cluster_database, embedded_database
    from qlgate.jobs.settings import JobsSettings

    monkeypatch.setenv("QLGATE_JOBS_DATABASE", str(tmp_path / "env.sqlite"))
    for data in ({}, {"jobs": {"slots": 2}}):
        assert JobsSettings.of(data).database is None
        assert embedded_database(JobsSettings.of(data)) == cluster_database(data) == str(tmp_path / "env.sqlite")
    assert JobsSettings.of({"jobs": {"archive": "old.sqlite"}}).database == "old.sqlite"
    assert JobsSettings.of({"jobs": {"database": "new.sqlite", "archive": "old.sqlite"}}).database == "new.sqlite"
