"""Which names a table's mapping reads as parameters, so that a ``where`` name it would
never read is refused before anything is sent (``where qq = "camera"``).

A name in a where clause against a table is a request parameter (spec §8.3). Misspelt, it
fills no token: the request goes out without it and the API answers with its own error
(eBay: 400, "keyword or category required") or, worse, with an unfiltered answer. What a
mapping reads is written in it: the tokens of its URI and header templates, its ``using
defaults`` names, its ``with aliases`` names, and ``limit`` and ``offset`` (which every
select may send). Code may read any name, so a mapping with code that runs before the
request is sent takes any name: a patch or ``auth using`` module defining a hook that
shapes the request (``validate_param``, ``patch_uri``, ``patch_headers``,
``body_template``, ``patch_body``, ``compute_key``, ``auth``), and a body template (a
form body sends every parameter; Jinja and Mustache ones read what they like). Hooks that
only see the answer (``patch_status``, ``parse_response``, ``patch_response``,
``patch_media_type``) do not make it open: a name read only there was never sent. Nor
does a request hook marked ``@table_params_only``, which reads no name the templates do
not (the shared hooks of the tables generated from OpenAPI and of eBay's REST tables).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..lang.templates import Template
from .model import Mapping

# the hooks that run before a request is sent, and so may read any parameter
_REQUEST_HOOKS = frozenset(
    {"validate_param", "patch_uri", "patch_headers", "body_template", "patch_body", "compute_key", "auth"}
)
_ALWAYS = frozenset({"limit", "offset"})
_MARK = "__qlgate_table_params_only__"
F = TypeVar("F", bound=Callable[..., Any])


def table_params_only(hook: F) -> F:
    """Mark a request hook that reads no parameter the table's templates do not name,
    so that the tables using it still refuse a where name they never read."""
    setattr(hook, _MARK, True)
    return hook


def accepted_names(mapping: Mapping) -> frozenset[str] | None:
    """The parameter names ``mapping`` reads, or None when code may read any name."""
    if mapping.body is not None:
        return None
    for module in (mapping.patch, mapping.auth):
        if module is not None and any(
            name in _REQUEST_HOOKS and not getattr(hook, _MARK, False) for name, hook in module.hooks.items()
        ):
            return None
    names = set(_ALWAYS) | set(mapping.defaults) | set(mapping.aliases)
    defaults = [v for v in mapping.defaults.values() if isinstance(v, Template)]  # a default may read another
    templates = [mapping.uri, *(t for pair in mapping.headers for t in pair), *defaults]
    for template in templates:
        names |= template.names()
        names |= {token.body.raw for token in template.tokens if not token.body.tokens}
    return frozenset(n for n in names if n != "config" and not n.startswith("config."))


def unknown_name(mapping: Mapping, name: str) -> frozenset[str] | None:
    """The names ``mapping`` reads when ``name`` is none of them (nor a dotted part of one,
    ``paging.size`` for ``{paging}`` or ``paging`` for ``{paging.size}``); else None."""
    names = accepted_names(mapping)
    if names is None or name in names:
        return None
    if any(name.startswith(n + ".") or n.startswith(name + ".") for n in names):
        return None
    return names
