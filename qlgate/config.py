"""Configuration (spec §15): a JSON document visible to scripts as ``config``,
with ``"${NAME}"`` and ``"${NAME:-default}"`` environment substitution, and the
secrets it holds, which must never appear in responses, logs or errors.

Every document is checked against the declared keys of ``config_schema`` once
its variables are substituted: a wrong type, an unknown key of a closed section
or a near miss of a declared name is a ``ConfigError`` naming the JSON path and
the file, rather than a setting silently left at its default.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus, unquote, urlsplit

from .config_keys import declared_default
from .config_position import position
from .config_schema import Problem, secret_name, validate
from .config_values import ConfigView
from .errors import ConfigError
from .http.proxy import ProxySettings, proxy_settings

_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
MASK = "****"


def _substitute(value: Any, env: dict[str, str], secrets: set[str], key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: _substitute(v, env, secrets, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, env, secrets, key) for v in value]
    if isinstance(value, str):

        def repl(m: re.Match) -> str:
            name = m.group(1)
            got = env.get(name, m.group(2) or "")
            if got and _secret_variable(name):
                secrets.add(got)  # the variable's value, wherever in the text it went
            return got

        out = _ENV.sub(repl, value)
        if out and secret_name(key):
            secrets.add(out)
        if "@" in out and "://" in out:
            secrets |= url_passwords(out)  # redis://:pw@…, postgresql://user:pw@…: whatever the key
        return out
    return value


def _secret_variable(name: str) -> bool:
    """Whether an environment variable is named like a secret: ``API_TOKEN``, and also
    ``WEATHER_KEY`` (KEY as a word of the name, which the key pattern's ``^key$`` misses)."""
    return secret_name(name) or "KEY" in name.upper().split("_")


def url_passwords(url: str) -> set[str]:
    """The password of a URL's user part, as written and decoded: what must be masked
    wherever the URL (or a message quoting it) is shown."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return set()
    if not password:
        return set()
    raw = parts.netloc.rpartition("@")[0].partition(":")[2]
    return {form for form in (password, raw, unquote(raw)) if form}


@dataclass
class Settings:
    """The engine's knobs, read from the config document (``ConfigView``: each field's
    default is its key's declared one)."""

    max_nested_requests: int = declared_default("maxNestedRequests")
    max_fan_out: int = declared_default("maxFanOut")
    max_response_bytes: int = declared_default("maxResponseLength")
    params_from_request: bool = declared_default("paramsFromRequest")
    request_id_header: str = declared_default("requestIdHeader")
    connection: str = declared_default("connection")
    udf_paths: list[Path] = field(default_factory=list)
    patch_paths: list[Path] = field(default_factory=list)
    default_timeout_ms: int = declared_default("defaultTimeout")
    script_budget: int = declared_default("scriptBudget")  # work one run may build (Run.spend)
    table_timeouts: dict[str, int] = field(default_factory=dict)
    proxy: ProxySettings | None = None  # config ``proxy`` (qlgate/http/proxy.py): None sends directly

    def timeout_for(self, table: str) -> int:
        """``timeouts`` maps a table name or a dotted prefix (``ebay.trading``) to ms."""
        if not self.table_timeouts:  # most configs: no walk up the dotted name per call
            return self.default_timeout_ms
        name = table
        while name:
            if name in self.table_timeouts:
                return self.table_timeouts[name]
            name = name.rpartition(".")[0]
        return self.default_timeout_ms

    @classmethod
    def from_config(cls, config: dict[str, Any] | ConfigView, env: dict[str, str] | None = None) -> Settings:
        """``env``: where ``"proxy": "env"`` reads HTTP_PROXY and the like (the process's own
        environment unless given). A value the key's declaration refuses is a
        ``ConfigError`` naming it, never its default in disguise."""
        view = config if isinstance(config, ConfigView) else ConfigView(config)
        response_bytes = view.optional_integer("maxResponseSize")  # the older name: the newer wins
        if view.has("maxResponseLength") or response_bytes is None:
            response_bytes = view.integer("maxResponseLength")
        return cls(
            max_nested_requests=view.integer("maxNestedRequests"),
            max_fan_out=view.integer("maxFanOut"),
            max_response_bytes=response_bytes,
            params_from_request=view.boolean("paramsFromRequest"),
            # an empty header name would name no header: the default's
            request_id_header=view.text("requestIdHeader") or cls.request_id_header,
            connection=view.text("connection") or cls.connection,
            udf_paths=[Path(p) for p in view.strings("udfPaths") or ()],
            patch_paths=[Path(p) for p in view.strings("patchPaths") or ()],
            default_timeout_ms=view.integer("defaultTimeout"),
            script_budget=view.integer("scriptBudget"),
            table_timeouts={name: int(ms) for name, ms in view.entries("timeouts").items()},
            proxy=proxy_settings(view.value("proxy"), os.environ if env is None else env),
        )


class Secrets:
    """Masks secret values wherever text leaves the engine."""

    def __init__(self, values: set[str] | None = None):
        self._set(values or set())

    def _set(self, values: set[str]) -> None:
        values = {v for v in values if len(v) >= 4}
        # each secret as written, and as it appears in a URL: percent-encoded throughout,
        # or as encodeURIComponent leaves it (URI templates), or as a form encodes it.
        # Both lists are replaced whole, never changed in place: a thread masking while
        # another adds a secret reads the old lists or the new ones
        forms = list(
            dict.fromkeys(
                form
                for v in sorted(values, key=len, reverse=True)
                for form in (v, quote(v, safe=""), quote(v, safe="-_.!~*'()"), quote_plus(v, safe=""))
            )
        )
        self.values = sorted(values, key=len, reverse=True)
        self._forms = forms

    def add(self, value: str) -> None:
        """A secret learnt at run time (an OAuth2 access token, ``qlgate.oauth``): masked
        from now on wherever the config's own are."""
        if len(value) >= 4 and value not in self.values:
            self._set({*self.values, value})

    def discard(self, value: str) -> None:
        """Forget a run-time secret no longer in use (an access token long replaced), so
        the list a mask walks stays short on a gateway that runs for months."""
        if value in self.values:
            self._set(set(self.values) - {value})

    def mask(self, text: str) -> str:
        if not self._forms or not isinstance(text, str):
            return text
        for form in self._forms:
            if form in text:
                text = text.replace(form, MASK)
        return text

    def mask_bytes(self, data: bytes) -> bytes:
        """``mask`` of UTF-8 text as bytes (an answer's body), without decoding it when
        no secret is set. A secret's UTF-8 form is found only where the secret is: UTF-8
        never starts a character inside another one."""
        if not self._forms:
            return data
        for form in self._forms:
            encoded = form.encode("utf-8", "surrogatepass")
            if encoded in data:
                data = data.replace(encoded, MASK.encode())
        return data

    def mask_value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.mask(value)
        if isinstance(value, dict):
            return {self.mask(k): self.mask_value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.mask_value(v) for v in value]
        return value


@dataclass
class Config:
    data: dict[str, Any]
    secrets: Secrets
    settings: Settings
    path: Path | None = None

    @property
    def view(self) -> ConfigView:
        """The document's settings, typed (``config_values``): how the code reads a key."""
        return ConfigView(self.data, self.secrets.values)

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any] | None,
        *,
        env: dict[str, str] | None = None,
        path: Path | None = None,
        secrets: Secrets | None = None,
    ) -> Config:
        """``secrets``: values already known to be secret (a config derived from another
        keeps the secrets its environment variables brought)."""
        found: set[str] = set(secrets.values if secrets is not None else ())
        environment = dict(os.environ if env is None else env)
        resolved = _substitute(data or {}, environment, found)
        problems = validate(resolved, secrets=found)
        if problems:
            raise invalid(problems, path)
        settings = Settings.from_config(ConfigView(resolved, found), environment)
        if settings.proxy is not None:  # credentials in a proxy URL, its Basic token
            found |= settings.proxy.secrets()
        return cls(resolved, Secrets(found), settings, path)

    @classmethod
    def load(cls, path: str | Path | None, *, env: dict[str, str] | None = None) -> Config:
        if path is None:
            return cls.from_dict({}, env=env)
        file = Path(path)
        return cls.from_dict(read_document(file), env=env, path=file)


def invalid(problems: list[Problem], path: Path | None) -> ConfigError:
    """The error a document with ``problems`` is refused with: the first in full, with
    its line and column in the file, and a count of the others (``qlgate config check``
    lists them all)."""
    first = problems[0]
    at = located(first, path)
    where = f"config {path}{at}" if path is not None else "config"
    more = f" (and {len(problems) - 1} more: qlgate config check lists them)" if len(problems) > 1 else ""
    line, column = (int(n) for n in at[1:].split(":")) if at else (None, None)
    return ConfigError(
        f"{where}: {first}{more}",
        line=line,
        column=column,
        path=first.path,
        file=str(path) if path is not None else None,
        problems=[str(p) for p in problems] if len(problems) > 1 else None,
    )


def located(problem: Problem, file: Path | None, text: str | None = None) -> str:
    """``:LINE:COLUMN`` of the key ``problem`` is about in ``file`` (whose ``text`` may be
    given, read once for many problems), or nothing when it cannot be found there."""
    if file is None or not problem.parts:
        return ""
    if text is None:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""
    found = position(text, problem.parts)
    return f":{found[0]}:{found[1]}" if found is not None else ""


def substituted(data: dict[str, Any], env: dict[str, str] | None = None) -> tuple[dict[str, Any], Secrets]:
    """``data`` with its ``${NAME}`` references replaced, as loading does, and the
    secrets found doing it; unchecked (``qlgate config check`` checks it)."""
    found: set[str] = set()
    result: dict[str, Any] = _substitute(data, dict(os.environ if env is None else env), found)
    return result, Secrets(found)


def read_document(file: Path) -> dict[str, Any]:
    """A config file's JSON object, as written (before substitution and checks)."""
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read config file {file}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"config file {file} is not UTF-8 text (byte {e.start})") from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ConfigError(f"config file {file} is not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config file {file} must hold a JSON object")
    return data
