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
            "udfPaths": ["udfs", 3],
            "patchPaths": ["patches"],
        }
    )

    assert settings.max_nested_requests == 4
    assert settings.max_fan_out == 20
    assert settings.default_timeout_ms == 2500
    assert settings.script_budget == 1000
    assert settings.request_id_header == "x-request-id"
    assert settings.connection == "close"
    assert settings.udf_paths == [Path("udfs")]  # entries that are not text are skipped
    assert settings.patch_paths == [Path("patches")]


def test_max_response_size_is_an_alias_of_max_response_length():
    assert Settings.from_config({"maxResponseSize": 4096}).max_response_bytes == 4096


def test_max_response_length_wins_over_its_alias():
    settings = Settings.from_config({"maxResponseLength": 1024, "maxResponseSize": 4096})

    assert settings.max_response_bytes == 1024


@pytest.mark.parametrize("bad", ["big", 0, -5, True, None, [100]])
def test_a_limit_that_is_not_a_positive_number_falls_back_to_its_default(bad):
    settings = Settings.from_config({"maxFanOut": bad, "scriptBudget": bad, "maxResponseLength": bad})

    assert settings.max_fan_out == 1000
    assert settings.script_budget == 5_000_000
    assert settings.max_response_bytes == 10_000_000


@pytest.mark.parametrize(("value", "expected"), [(False, False), (True, True), ("false", True), (0, True)])
def test_params_from_request_is_turned_off_only_by_json_false(value, expected):
    assert Settings.from_config({"paramsFromRequest": value}).params_from_request is expected


def test_timeout_for_a_table_uses_its_longest_dotted_prefix():
    settings = Settings.from_config({"timeouts": {"ebay": 30000, "ebay.trading": 60000}})

    assert settings.timeout_for("ebay.trading.GetItem") == 60000
    assert settings.timeout_for("ebay.finding.findItemsByKeywords") == 30000
    assert settings.timeout_for("ebay") == 30000


def test_timeout_for_an_unlisted_table_is_the_default_timeout():
    settings = Settings.from_config({"defaultTimeout": 1500, "timeouts": {"ebay": 30000, "slow": "never", "off": 0}})

    assert settings.timeout_for("ebayx.items") == 1500  # a prefix is a whole dotted segment
    assert settings.timeout_for("slow") == 1500  # entries that are not positive numbers are dropped
    assert settings.timeout_for("off") == 1500


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
