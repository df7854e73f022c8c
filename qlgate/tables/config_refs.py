"""``{config.…}`` tokens that name nothing in the config: a typo of the table's
author or a key the deployment left out. Such a token is not an optional
parameter (``{x}`` of a table template may go unset): nothing at run time can
give it a value. So it is an error naming the token, the table and the nearest
keys that do exist — at run time (``uri_template.py``, ``request.py``), and
before, for every table and route file, in ``qlgate check``
(``commands/authoring.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import StatementError
from ..lang.templates import Template, parse_reference, resolve_reference
from ..suggest import nearest
from ..values import MISSING

# a token whose reference starts with ``config`` and holds no nested token
_TOKEN = re.compile(r"\{[\^#|`0-9]*(config(?:\.[^{}\s\"'.\[\]]+|\[[^{}\]]*\])+)\}")


class UnresolvedConfig(StatementError):
    """A table's ``{config.…}`` token names no key of the config (status 500: the
    deployment's mistake, not the caller's)."""

    status = 500


QLIO_TOP_KEYS = frozenset({"tables", "auth", "proxy", "ebay"})


def qlio_layout(config: Any) -> bool:
    """Is this ql.io's config layout (issue 30): everything under ``tables``, with at most
    what points it somewhere (``ebay``: the environment, ``proxy``, and the ``auth`` the
    emulator adds)? Then a ``{config.…}`` token naming nothing stands empty, as ql.io
    filled it, and ``qlgate check`` warns instead of failing: ql.io's own eBay tree
    reads keys its ``config/dev.json`` never had (``tables.ebay.shopping.siteid``)."""
    data = getattr(config, "data", config)
    return isinstance(data, dict) and "tables" in data and set(data) <= QLIO_TOP_KEYS


def is_config_ref(text: str) -> bool:
    return text.startswith(("config.", "config["))


def resolves(config: Any, reference: str) -> bool:
    """Does ``config.a.b`` (as a token writes it) name a key of ``config``?"""
    ref = parse_reference(reference)
    if ref is None or ref[0] != "config":
        return True  # not a config reference: not this module's to judge
    return resolve_reference("config", ref[1], lambda name: config if name == "config" else MISSING) is not MISSING


def suggestion(config: Any, reference: str) -> str | None:
    """The existing key nearest to ``config.a.b``: the path down to the first name
    that is missing, that name replaced by the closest one beside it."""
    parts = reference.split(".")[1:]
    if not parts or "[" in reference:
        return None
    node = config
    for index, part in enumerate(parts):
        if isinstance(node, dict) and part in node:
            node = node[part]
            continue
        if not isinstance(node, dict):
            return None
        found = nearest(part, node, cutoff=0.6)
        if found is None:
            return None
        return ".".join(["config", *parts[:index], found, *parts[index + 1 :]])
    return None


def unresolved(
    reference: str, table: str, config: Any, where: str, *, by_caller: bool = False, written: str = ""
) -> UnresolvedConfig:
    """The run-time error for the token ``{reference}`` in ``where`` (the URI, a
    header) of ``table`` (empty when unknown). ``by_caller``: the table is a caller's
    own (``create table`` in an ad-hoc script), so the mistake is theirs: 400.

    The did-you-mean names a key of ``config`` (a caller's table sees only the config
    opened to callers). It is given for a token written as it stands in ``written`` (the
    template's text), never for one a value helped spell (``{config.regions.{region}.base}``
    in a deployer's table, called with a caller's ``region``): that would let a caller
    probe the deployer's key names. ``qlgate check`` suggests for those."""
    literal = "{" + reference + "}" in written
    near = suggestion(config, reference) if literal else None
    hint = f"; did you mean {{{near}}}?" if near else ""
    prefix = f"{table}: " if table else ""
    return UnresolvedConfig(
        f"{prefix}the {where} token {{{reference}}} names nothing in the config{hint}",
        status=400 if by_caller else None,
        token=reference,
        table=table or None,
    )


def missing_in(template: Template, config: Any) -> str | None:
    """The first config token of ``template`` that resolves to nothing, if any."""
    for token in template.tokens:
        text = token.body.raw
        if not token.body.tokens and is_config_ref(text) and not resolves(config, text):
            return text
    return None


@dataclass(frozen=True)
class Found:
    """A ``{config.…}`` token in a file's text, with its 1-based position."""

    reference: str
    line: int
    column: int


def tokens_in(text: str) -> Iterator[Found]:
    """Every ``{config.…}`` token without a nested token in ``text``, comment lines
    (``--``) left out."""
    for number, line in enumerate(text.split("\n"), start=1):
        if line.lstrip().startswith("--"):
            continue
        for match in _TOKEN.finditer(line):
            yield Found(match.group(1), number, match.start() + 1)
