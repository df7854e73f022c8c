"""Jinja2 body templates (``bodies.py``): the sandboxed environment of a template
folder. A module of its own so that Jinja2 is imported when a table has a Jinja2
body, not whenever tables load (``qlgate run`` starts without it)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import jinja2
import jinja2.sandbox
from markupsafe import Markup

from ..values import MISSING
from .json_body import FILTERS as JSON_FILTERS


class _Undefined(jinja2.Undefined):
    """Undefined renders as empty text and is iterable/falsy (EJS-like)."""

    def __str__(self) -> str:
        return ""


def _finalizer(escape: Callable[[str], str], text: Callable[[Any], str]) -> Callable[[Any], Any]:
    def finalize(value: Any) -> Any:
        if isinstance(value, Markup):
            return value
        if isinstance(value, jinja2.Undefined) or value is None or value is MISSING:
            return ""
        return escape(text(value))

    return finalize


@lru_cache(maxsize=1)
def bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled Jinja2 templates kept between processes, so a CLI run or a gateway
    start does not compile every body template again (most of loading 500 tables).
    Jinja's own cache: a directory of this user's, 0700, checked by Jinja; entries
    are keyed by template file and checked against its source. None (compile each
    time) when no such directory can be had."""
    try:
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        return None


def new_environment(search_path: str, escape: Callable[[str], str], text: Callable[[Any], str]) -> jinja2.Environment:
    """The environment of one template folder. It is sandboxed: a template reaches
    its values' data, never Python internals (``__globals__``, ``__class__``, …), so
    even a hostile template (one a generator was tricked into writing) runs no code;
    trying is a TemplateError."""
    env = jinja2.sandbox.SandboxedEnvironment(
        loader=jinja2.FileSystemLoader(search_path),
        autoescape=False,  # escaping is done per media type in finalize
        finalize=_finalizer(escape, text),
        undefined=_Undefined,
        keep_trailing_newline=True,
        bytecode_cache=bytecode_cache(),
    )
    env.filters.update(JSON_FILTERS)  # field / json_body: typed JSON bodies (json_body.py)
    return env
