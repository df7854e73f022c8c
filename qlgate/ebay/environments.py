"""Which eBay a config talks to, chosen by one key: ``ebay.environment``.

``production`` and ``sandbox`` are eBay's two real environments; they differ only
in host names, so a config names its credentials once and this module fills in
every endpoint the eBay tables read — the legacy gateways (Finding, Shopping,
Trading), the REST hosts (``api``, ``apiz``, ``apix``, ``apim``) and the OAuth
token and consent URLs of the ``ebay.app`` / ``ebay.user`` credentials.
``emulator`` is the eBay emulator (the ``qlgate-ebay-emulator`` distribution), and ``auto`` (the default)
means the emulator unless eBay credentials are set.

Endpoints are filled, never forced: a value the config sets (an
``EBAY_TRADING_GATEWAY`` override, say) is kept; a missing or empty one gets the
environment's.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ..config import Config
from ..config_env import named, variables_at
from ..config_values import ConfigView
from ..errors import ConfigError

ENVIRONMENTS = ("auto", "emulator", "sandbox", "production")
LEGACY_EMULATOR_MODES = {"always": "emulator", "auto": "auto", "off": "production"}


def _endpoints(sandbox: bool) -> dict[str, Any]:
    dot = ".sandbox" if sandbox else ""
    return {
        "tables": {
            "ebay": {
                "finding": {"gateway": f"https://svcs{dot}.ebay.com/services/search/FindingService/v1"},
                "shopping": {"gateway": f"https://open.api{dot}.ebay.com/shopping"},
                "trading": {"gateway": f"https://api{dot}.ebay.com/ws/api.dll"},
                "rest": {
                    "hosts": {host: f"https://{host}{dot}.ebay.com" for host in ("api", "apiz", "apix", "apim")},
                    "marketplace": "EBAY_US",
                },
            }
        },
        "auth": {
            name: {
                "tokenUrl": f"https://api{dot}.ebay.com/identity/v1/oauth2/token",
                "authorizeUrl": f"https://auth{dot}.ebay.com/oauth2/authorize",
            }
            for name in ("ebay.app", "ebay.user")
        },
    }


ENDPOINTS = {"production": _endpoints(sandbox=False), "sandbox": _endpoints(sandbox=True)}


def environment_of(data: dict[str, Any] | ConfigView) -> str:
    """The environment a config document asks for (``auto`` when it says nothing):
    ``ebay.environment``, else the older ``ebay.emulator``."""
    view = data if isinstance(data, ConfigView) else ConfigView(data)
    chosen = view.text("ebay.environment") if view.has("ebay.environment") else None
    if not chosen:
        legacy = (view.text("ebay.emulator") or "auto").strip().lower()
        chosen = LEGACY_EMULATOR_MODES.get(legacy)
        if chosen is None:
            raise ConfigError(f"config ebay.emulator is {legacy!r}: one of always, auto, off", path="ebay.emulator")
    return chosen.strip().lower()  # one of ENVIRONMENTS: the key's declared choices


# the keys whose value, any of them, makes ``auto`` mean eBay's own rather than the emulator
CREDENTIAL_KEYS: tuple[tuple[str, ...], ...] = (
    ("auth", "ebay.app", "clientId"),
    ("auth", "ebay.app", "clientSecret"),
    ("auth", "ebay.user", "clientId"),
    ("tables", "ebay", "finding", "appname"),
    ("tables", "ebay", "trading", "eBayAuthToken"),
)
# what every call to eBay's own needs: the application's keys (the OAuth client of
# ``ebay.app``, which the REST tables get their tokens with; its id is also the App ID
# the Finding and Shopping tables send). One without the other fails every REST call.
APP_KEYS: tuple[tuple[str, ...], ...] = (("auth", "ebay.app", "clientId"), ("auth", "ebay.app", "clientSecret"))


def _value_at(data: Any, key: tuple[str, ...]) -> Any:
    for step in key:
        data = _object(data).get(step)
    return data


def _is_set(data: dict[str, Any], key: tuple[str, ...]) -> bool:
    value = _value_at(data, key)
    return isinstance(value, str) and bool(value.strip())


def has_credentials(data: dict[str, Any]) -> bool:
    """Does the config carry real eBay credentials (a Trading token, an app id, an
    OAuth client id or secret)? ``auto`` picks the emulator when it does not."""
    return any(_is_set(data, key) for key in CREDENTIAL_KEYS)


def _object(value: Any) -> dict[str, Any]:
    """``value`` if it is an object, else an empty one: a malformed section holds no
    credentials (what is wrong with it is said where it is used)."""
    return value if isinstance(value, dict) else {}


def resolved_environment(data: dict[str, Any]) -> str:
    """``auto`` resolved: ``emulator`` without credentials, else ``production``."""
    chosen = environment_of(data)
    if chosen == "auto":
        return "production" if has_credentials(data) else "emulator"
    return chosen


def fill(data: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """``data`` with every key of ``defaults`` it lacks, or holds empty, filled in.
    Only objects the config already has are filled under ``auth`` (an environment
    does not invent credentials)."""
    out = copy.deepcopy(data)
    for key, value in defaults.items():
        current = out.get(key)
        if isinstance(value, dict):
            if key == "auth":
                entries = current if isinstance(current, dict) else {}
                out[key] = {
                    name: fill(entry, value.get(name, {})) if isinstance(entry, dict) else entry
                    for name, entry in entries.items()
                }
                if not entries:
                    out.pop(key, None)
            elif current is None or isinstance(current, dict):
                out[key] = fill(current or {}, value)
        elif current is None or current == "":
            out[key] = value
    return out


def with_endpoints(data: dict[str, Any], environment: str) -> dict[str, Any]:
    """The config document with ``environment``'s endpoints filled in (``production``
    or ``sandbox``; the emulator's come from the running emulator)."""
    if environment not in ENDPOINTS:
        raise ConfigError(f"no fixed endpoints for eBay environment {environment!r}")
    return fill(data, ENDPOINTS[environment])


class EbayCredentialsIncomplete(ConfigError):
    """eBay's own was chosen with only part of the application's keys set: every REST
    call would fail on its token, so nothing starts (``details["missing"]`` names the
    environment variables, or the keys, to set)."""


@dataclass(frozen=True)
class EbayChoice:
    """Which eBay the eBay tables talk to, and why, in words an operator can act on
    (the serve banner and ``qlgate run --diagnostics`` say it)."""

    environment: str  # emulator, sandbox or production
    why: str

    def describe(self) -> str:
        where = "the built-in emulator" if self.environment == "emulator" else f"eBay {self.environment}"
        return f"{where}: {self.why}"


def choose(config: Config) -> EbayChoice:
    """The eBay ``config`` asks for, and why; an ``EbayCredentialsIncomplete`` when it
    is eBay's own and only part of the application's keys is set."""
    data = config.data
    chosen = environment_of(data)
    said = [named(config, key) for key in CREDENTIAL_KEYS if _is_set(data, key)]
    set_names = ", ".join(dict.fromkeys(said))
    if chosen == "auto":
        environment = "production" if said else "emulator"
        if said:
            why = (
                f"ebay.environment is auto and eBay credentials are set ({set_names}); "
                f"{named(config, ('ebay', 'environment'))}=emulator keeps the emulator, =sandbox for eBay's sandbox"
            )
        else:
            app = " and ".join(dict.fromkeys(named(config, key) for key in APP_KEYS))
            why = f"ebay.environment is auto and no eBay credentials are set ({app} for eBay's own)"
    else:
        environment = chosen
        given = variables_at(config, ("ebay", "environment"))
        why = f"ebay.environment is {chosen}" + (f" ({given[0]} set)" if given else "")
    if environment == "production" and said and "ebay.app" in _object(data.get("auth")):
        missing = [key for key in APP_KEYS if not _is_set(data, key)]
        if missing:
            names = [named(config, key) for key in missing]
            reason = (
                f"{set_names} being set made ebay.environment auto choose eBay production" if chosen == "auto" else why
            )
            raise EbayCredentialsIncomplete(
                f"eBay {environment} needs the application's keys, and only part of them is set: "
                f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} not ({reason}). "
                f"Set {' and '.join(names)} too, or unset {set_names} (or set "
                f"{named(config, ('ebay', 'environment'))}=emulator) for the built-in emulator",
                missing=names,
            )
    return EbayChoice(environment, why)
