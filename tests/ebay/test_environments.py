"""One key, ``ebay.environment``, picks which eBay every eBay table talks to."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from qlgate.config import Config
from qlgate.ebay.emulation import wants_emulator, with_ebay_endpoints
from qlgate.ebay.environments import (
    EbayCredentialsIncomplete,
    choose,
    environment_of,
    resolved_environment,
    with_endpoints,
)
from qlgate.errors import ConfigError
from qlgate.ports import free_port

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
    env = {"EBAY_APP_ID": "a", "EBAY_CERT_ID": "c", "EBAY_TRADING_GATEWAY": "https://proxy.example/ws"}
    config = Config.load(DEV, env=env)
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


@pytest.mark.parametrize(
    ("env", "missing"),
    [({"EBAY_APP_ID": "my-app"}, "EBAY_CERT_ID"), ({"EBAY_CERT_ID": "my-cert"}, "EBAY_APP_ID")],
)
def test_half_the_app_keys_refuse_production_naming_the_variable_to_set(env, missing):
    """Exporting EBAY_APP_ID alone used to switch ``auto`` to eBay production silently,
    where every REST call then failed on its token."""
    config = Config.load(DEV, env=env)
    with pytest.raises(EbayCredentialsIncomplete) as caught:
        with_ebay_endpoints(config)
    error = caught.value
    assert error.details["missing"] == [missing] and f"{missing} is not" in error.message
    assert f"unset {next(iter(env))}" in error.message and "EBAY_ENVIRONMENT=emulator" in error.message
    with pytest.raises(EbayCredentialsIncomplete):  # asked for by name, the same
        with_ebay_endpoints(Config.load(DEV, env={**env, "EBAY_ENVIRONMENT": "production"}))
    assert choose(Config.load(DEV, env={**env, "EBAY_ENVIRONMENT": "emulator"})).environment == "emulator"


def test_the_choice_says_why_in_the_variables_a_user_sets():
    none = choose(Config.load(DEV, env={}))
    assert none.environment == "emulator"
    assert none.describe() == (
        "the built-in emulator: ebay.environment is auto and no eBay credentials are set "
        "(EBAY_APP_ID and EBAY_CERT_ID for eBay's own)"
    )
    both = choose(Config.load(DEV, env={"EBAY_APP_ID": "a", "EBAY_CERT_ID": "c"}))
    assert both.environment == "production"
    assert both.describe().startswith(
        "eBay production: ebay.environment is auto and eBay credentials are set (EBAY_APP_ID, EBAY_CERT_ID)"
    )
    sandbox = choose(Config.load(DEV, env={"EBAY_ENVIRONMENT": "sandbox"}))
    assert sandbox.describe() == "eBay sandbox: ebay.environment is sandbox (EBAY_ENVIRONMENT set)"


def test_a_missing_client_id_names_its_environment_variable():
    from qlgate.oauth.errors import AuthConfigError
    from qlgate.oauth.manager import TokenManager

    config = with_ebay_endpoints(Config.load(DEV, env={"EBAY_ENVIRONMENT": "production"}))
    with pytest.raises(AuthConfigError) as caught:
        TokenManager(config, http=lambda: None).entry("ebay.app")
    assert "clientId is missing or empty (set EBAY_APP_ID)" in caught.value.message


def test_serve_and_run_say_which_ebay_and_why(tmp_path):
    """At start: ``serve`` refuses half of production's keys before it listens, in one
    typed error; ``run --diagnostics`` says which eBay its tables called and why."""
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    workspace = ["--config", str(root / DEV), "--tables", str(tmp_path), "--routes", str(tmp_path)]
    serve = [sys.executable, "-m", "qlgate", "serve", "--port", str(free_port()), *workspace]
    done = subprocess.run(serve, env={**env, "EBAY_APP_ID": "my-app"}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "EbayCredentialsIncomplete" in done.stderr + done.stdout
    assert "EBAY_CERT_ID is not" in done.stderr + done.stdout and "Traceback" not in done.stderr
    run = [sys.executable, "-m", "qlgate", "run", *workspace, "--diagnostics", "-e", "return 1;"]
    done = subprocess.run(run, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "eBay: the built-in emulator: ebay.environment is auto" in done.stderr
