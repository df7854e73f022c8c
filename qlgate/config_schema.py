"""A config document checked against the declared keys (``config_keys.KEYS``):
loading refuses what ``validate`` finds (``qlgate.config``), ``qlgate config
check`` lists it, ``qlgate config show`` fills in the defaults (``effective``), and
each typed read (``config_values``) checks its value by the same rule (``check``).

The config is also free data: tables and scripts read ``{config.some.thing}``,
and a deployer adds sections of their own. So the rule is by section:

- a **closed** section (``gateway``, ``cache``, ``jobs``…) holds only its declared
  keys: any other key is an error, with a "did you mean" when it is close to one;
- an **open** section (the top level, ``ebay``, ``tables`` and the eBay table
  sections, each ``auth`` entry) also holds the deployer's own keys, except one
  that is a near miss of a declared key (``maxNestedRequest``, ``timeout``): that is
  taken for a typo and is an error naming the key it resembles;
- a declared key of the wrong type is an error wherever it is; what is not
  declared is not looked into.

Standard library only: ``qlgate config`` and the loader import it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from .config_keys import ANY, ITEM, KEYS, Key
from .suggest import nearest

__all__ = ["KEYS", "Key", "Problem", "check", "effective", "kind_of", "secret_name", "validate"]


_BY_PARTS = {key.parts: key for key in KEYS}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a config document: where (a JSON path, and its parts, which
    ``config_position`` finds in the file's text) and what."""

    path: str
    message: str
    parts: tuple[str, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return f"{self.path or '(document)'}: {self.message}"


def kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


def _fits(value: Any, kind: str) -> bool:
    """Does ``value`` have the JSON type ``kind``? An integer is a number, a whole number
    an integer; infinity and NaN (which Python's JSON reads) are neither."""
    found = kind_of(value)
    if found == "number" and not math.isfinite(value):
        return False
    if found == kind:
        return True
    if kind == "number":
        return found == "integer"
    if kind == "integer":
        return found == "number" and float(value).is_integer()
    return False


def _declared(parts: tuple[str, ...]) -> Key | None:
    """The key declared for ``parts`` (a literal name before a ``*``)."""
    found = _BY_PARTS.get(parts)
    if found is not None or not parts:
        return found
    for i in range(len(parts) - 1, -1, -1):  # the deepest name turned into * first
        candidate = (*parts[:i], ANY, *parts[i + 1 :])
        if candidate in _BY_PARTS:
            return _BY_PARTS[candidate]
    return None


def _children(parts: tuple[str, ...]) -> list[str]:
    """The names declared directly under the key at ``parts``."""
    return [k.parts[-1] for k in KEYS if len(k.parts) == len(parts) + 1 and _matches(k.parts[:-1], parts)]


def _matches(pattern: tuple[str, ...], parts: tuple[str, ...]) -> bool:
    return len(pattern) == len(parts) and all(p in (ANY, q) for p, q in zip(pattern, parts))


def show_path(parts: Sequence[str]) -> str:
    """A JSON path as a reader writes it: ``gateway.auth.keys[0].name``, with
    ``["ebay.app"]`` for a name that holds a dot."""
    out = ""
    for part in parts:
        if part.startswith("[") and part.endswith("]"):
            out += part
        elif part and all(c.isalnum() or c in "_-$" for c in part):
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(part)}]"
    return out


def near_miss(name: str, names: Sequence[str]) -> str | None:
    """The declared name ``name`` is most likely a typo of, if any."""
    return nearest(name, [n for n in names if n not in (ANY, ITEM)], cutoff=0.8)


def validate(data: Any, *, deep: bool = False, secrets: Collection[str] | None = None) -> list[Problem]:
    """Every problem of a config document (after ``${NAME}`` substitution), in
    document order: wrong types, unknown keys of closed sections, near misses.
    ``deep``: the sections checked where they are used (``tables``, ``auth``: an
    entry no table uses does not stop a gateway) too, as ``qlgate config check`` does.
    ``secrets``: the values substitution found secret, which a problem never quotes
    (None: quote no string at all)."""
    problems: list[Problem] = []
    _Walk(problems, deep, secrets).walk(data, (), ())
    return problems


@dataclass
class _Walk:
    """One walk over a document, gathering its problems."""

    problems: list[Problem]
    deep: bool
    secrets: Collection[str] | None

    def walk(self, value: Any, parts: tuple[str, ...], shown: tuple[str, ...]) -> None:
        key = _declared(parts)
        if key is None or (key.at_use and not self.deep):
            return  # the deployer's own data, or looked at where it is used
        self.problems.extend(check(key, value, shown, self.secrets))
        if not _fits_any(value, key):
            return  # of another type: what it holds is not looked into
        if isinstance(value, list):
            item_key = _declared((*parts, ITEM))
            for index, item in enumerate(value):
                where = (*shown, f"[{index}]")
                if item_key is not None:
                    self.walk(item, (*parts, ITEM), where)
                elif key.items is not None and not _fits(item, key.items):
                    quoted = _short(item, _name(shown), self.secrets)
                    self.problems.append(
                        Problem(show_path(where), f"must be {key.items}, not {kind_of(item)} ({quoted})", where)
                    )
        if isinstance(value, dict):
            names = _children(parts)
            for name, member in value.items():
                child = (*parts, str(name))
                where = (*shown, str(name))
                if _declared(child) is not None:
                    self.walk(member, child, where)
                    continue
                meant = near_miss(str(name), names)
                if not key.open:
                    hint = f"; did you mean {meant}?" if meant else f" (known: {', '.join(sorted(names))})"
                    self.problems.append(Problem(show_path(where), f"unknown key{hint}", where))
                elif meant is not None:
                    self.problems.append(Problem(show_path(where), f"unknown key; did you mean {meant}?", where))


def check(key: Key, value: Any, shown: Sequence[str], secrets: Collection[str] | None) -> list[Problem]:
    """What is wrong with ``value`` as the value of ``key`` itself (not what it holds):
    its type, its minimum and maximum, its choices. ``shown``: its JSON path, as the
    problems name it; ``secrets`` as for ``validate``."""
    where, parts = show_path(shown), tuple(shown)
    if not _fits_any(value, key):
        wanted = " or ".join(key.types)
        quoted = _short(value, _name(shown), secrets)
        return [Problem(where, f"must be {wanted}, not {kind_of(value)} ({quoted})", parts)]
    problems = []
    if kind_of(value) in ("integer", "number"):
        if key.minimum is not None and value < key.minimum:
            problems.append(Problem(where, f"must be at least {key.minimum:g}, not {value}", parts))
        if key.maximum is not None and value > key.maximum:
            problems.append(Problem(where, f"must be at most {key.maximum:g}, not {value}", parts))
    if key.choices and isinstance(value, str) and value.strip().lower() not in key.choices:
        listed = ", ".join(c for c in key.choices if c)
        quoted = _short(value, _name(shown), secrets)
        problems.append(Problem(where, f"must be one of {listed}, not {quoted}", parts))
    return problems


def _fits_any(value: Any, key: Key) -> bool:
    return any(_fits(value, kind) for kind in key.types)


def _name(shown: Sequence[str]) -> str:
    """The name of the key a JSON path ends at (a list's, for one of its items)."""
    names = [part for part in shown if not part.startswith("[")]
    return names[-1] if names else ""


SHOWN_CHARS = 60  # of a value an error quotes


def _short(value: Any, name: str, secrets: Collection[str] | None) -> str:
    """A value as an error shows it. A string is quoted (up to ``SHOWN_CHARS``), so that
    ``"ebay.environment": "prod"`` says what was written, unless it may be a secret: its key
    is named like one (``clientSecret``), it holds one of ``secrets`` (the values the
    environment brought), or nobody said which values are secret (``secrets`` None); then
    only its length is told. A list or an object is told by its size: what it holds was
    put where something else belongs (``"keys": {"ops": "${OPS_KEY}"}``)."""
    if isinstance(value, str):
        if secrets is None or secret_name(name) or any(s and s in value for s in secrets):
            return f"text of {len(value)} characters"
        shown = value if len(value) <= SHOWN_CHARS else value[:SHOWN_CHARS] + "…"
        return json.dumps(shown, ensure_ascii=False)
    if isinstance(value, dict):
        return f"an object of {len(value)} member{'s' if len(value) != 1 else ''}"
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    return json.dumps(value)  # true, false, null, a number: nothing to hide


_SECRET_NAME = re.compile(
    r"token|secret|password|passwd|cert|credential|apikey|api_key|private|appname|devname|appid|^key$", re.I
)
# keys named like a secret that hold none: where an OAuth2 credential (config ``auth``)
# asks for its token, and the file its refresh token is kept in (the secrets beside them,
# clientSecret and refreshToken, stay secrets)
_NOT_SECRET_NAME = frozenset({"tokenUrl", "refreshTokenFile"})


def secret_name(name: str) -> bool:
    """Whether a key is named like one holding a secret: every string under it is one."""
    return _SECRET_NAME.search(name) is not None and name not in _NOT_SECRET_NAME


# sections whose mere presence changes what the gateway does (``ebay``: the emulator may
# start; ``gateway.auth``: keys are required): shown with defaults only when written
PRESENCE_MATTERS = (("ebay",), ("gateway", "auth"))


def effective(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with every declared default it leaves out filled in (what the code
    reads when a key is absent): ``qlgate config show``. Copied back into a file, it
    configures the same gateway: a section whose presence matters is not added."""
    out = json.loads(json.dumps(data))
    absent = [s for s in PRESENCE_MATTERS if not _present(data, s)]
    for key in KEYS:
        if not key.parts or ANY in key.parts or ITEM in key.parts or key.default is None:
            continue
        if any(key.parts[: len(section)] == section for section in absent):
            continue
        holder: Any = out
        for part in key.parts[:-1]:
            if not isinstance(holder, dict):
                break
            holder = holder.setdefault(part, {})
        if isinstance(holder, dict) and key.parts[-1] not in holder:
            holder[key.parts[-1]] = json.loads(json.dumps(key.default))
    return out


def _present(data: Any, parts: tuple[str, ...]) -> bool:
    for part in parts:
        if not isinstance(data, dict) or part not in data:
            return False
        data = data[part]
    return True
