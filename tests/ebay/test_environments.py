"""One key, ``ebay.environment``, picks which eBay every eBay table talks to."""

from __future__ import annotations

import pytest

from qlgate.config import Config
from qlgate.ebay.emulation import wants_emulator, with_ebay_endpoints
from qlgate.ebay.environments import environment_of, resolved_environment, with_endpoints
from qlgate.errors import ConfigError

DEV = "config/dev.json"


def test_without_credentials_dev_json_runs_on_the_emulator():
    assert wants_emulator(Config.load(DEV, env={}))


def test_credentials_switch_auto_to_production():
    config = Config.load(DEV, env={"EBAY_APP_ID": "my-app", "EBAY_CERT_ID": "my-cert"})
    assert not wants_emulator(config)
    data = with_ebay_endpoints(config).data
    assert data["tables"]["ebay"]["trading"]["gateway"] == "https://api.ebay.com/ws/api.dll"
    assert data["tables"]["ebay"]["rest"]["hosts"]["apiz"] == "https://apiz.ebay.com"
    assert data["auth"]["ebay.app"]["tokenUrl"] == "https://api.ebay.com/identity/v1/oauth2/token"
    assert data["auth"]["ebay.app"]["clientId"] == "my-app"


def test_one_key_selects_ebays_sandbox_for_every_endpoint():
    config = Config.load(DEV, env={"EBAY_ENVIRONMENT": "sandbox", "EBAY_APP_ID": "my-app"})
    data = with_ebay_endpoints(config).data
    ebay = data["tables"]["ebay"]
    assert ebay["finding"]["gateway"] == "https://svcs.sandbox.ebay.com/services/search/FindingService/v1"
    assert ebay["shopping"]["gateway"] == "https://open.api.sandbox.ebay.com/shopping"
    assert ebay["trading"]["gateway"] == "https://api.sandbox.ebay.com/ws/api.dll"
    assert set(ebay["rest"]["hosts"].values()) == {
        f"https://{h}.sandbox.ebay.com" for h in ("api", "apiz", "apix", "apim")
    }
    for name in ("ebay.app", "ebay.user"):
        assert data["auth"][name]["tokenUrl"] == "https://api.sandbox.ebay.com/identity/v1/oauth2/token"
        assert data["auth"][name]["authorizeUrl"] == "https://auth.sandbox.ebay.com/oauth2/authorize"


def test_the_emulator_can_be_forced_even_with_credentials():
    config = Config.load(DEV, env={"EBAY_ENVIRONMENT": "emulator", "EBAY_APP_ID": "my-app"})
    assert wants_emulator(config)


def test_an_endpoint_the_config_sets_is_kept():
    config = Config.load(DEV, env={"EBAY_APP_ID": "a", "EBAY_TRADING_GATEWAY": "https://proxy.example/ws"})
    assert with_ebay_endpoints(config).data["tables"]["ebay"]["trading"]["gateway"] == "https://proxy.example/ws"


def test_an_environment_invents_no_credentials():
    data = with_endpoints({"ebay": {}}, "production")
    assert "auth" not in data


def test_a_config_without_an_ebay_section_is_left_alone():
    config = Config.from_dict({"tables": {}}, env={})
    assert not wants_emulator(config)
    assert with_ebay_endpoints(config) is config


def test_the_older_emulator_switch_still_works():
    assert environment_of({"ebay": {"emulator": "always"}}) == "emulator"
    assert resolved_environment({"ebay": {"emulator": "off"}}) == "production"


@pytest.mark.parametrize("data", [{"ebay": {"environment": "staging"}}, {"ebay": {"emulator": "sometimes"}}])
def test_an_unknown_environment_is_a_config_error_naming_the_choices(data):
    with pytest.raises(ConfigError, match="one of"):
        environment_of(data)


@pytest.mark.parametrize(
    "data",
    [
        {"auth": "x"},
        {"auth": {"ebay.app": "x", "ebay.user": ["y"]}},
        {"tables": "x"},
        {"tables": {"ebay": "x"}},
        {"tables": {"ebay": {"trading": "x", "finding": 3}}},
    ],
)
def test_malformed_sections_hold_no_credentials_and_crash_nothing(data):
    config = Config.from_dict({"ebay": {}, **data}, env={})
    assert resolved_environment(config.data) == "emulator"
    assert wants_emulator(config)
    production = Config.from_dict({"ebay": {"environment": "production"}, **data}, env={})
    assert with_ebay_endpoints(production).data["ebay"] == {"environment": "production"}
