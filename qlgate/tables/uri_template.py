"""URI templates (spec §6): tokens are formatted against the parameter view,
percent-encoded like ``encodeURIComponent``, and a list value may fork the
template into several URIs (the fan-out). A ``{config.…}`` token that names
nothing in the config is an error naming it (``config_refs.py``), never an
empty piece of a URI that fails far away as an unreachable host.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from ..errors import MissingParameter, StatementError
from ..lang.templates import Template, Token, parse_reference, resolve_reference
from ..values import MISSING, to_text
from .config_refs import is_config_ref, unresolved
from .params import ParamView, lookup_dotted

_UNRESERVED = "-_.!~*'()"


def encode_component(text: str) -> str:
    if text.isalnum() and text.isascii():
        return text  # nothing to encode (ids, codes: most fan-out values), without quote's work
    return quote(text, safe=_UNRESERVED)


@dataclass(frozen=True, slots=True)
class Expanded:
    """One formatted URI and the parameter value that forked it, if any."""

    uri: str
    binding: dict[str, Any]


def token_value(token: Token, view: ParamView) -> tuple[str | None, Any]:
    """(parameter name, value) of a URI token; nested tokens are spliced first."""
    text = token.reference_text(view.lookup)
    if text is None:
        return None, MISSING
    value = lookup_dotted(view, text)
    if value is MISSING and ("[" in text):
        ref = parse_reference(text)
        if ref:
            value = resolve_reference(ref[0], ref[1], view.lookup)
    return text, value


def _format_scalar(value: Any, token: Token) -> str:
    text = to_text(value)
    return text if token.no_encode else encode_component(text)


def _is_empty(value: Any) -> bool:
    return value is MISSING or value is None or value == "" or (isinstance(value, list) and not value)


def token_names(template: Template) -> list[str]:
    return [t.body.raw for t in template.tokens if not t.body.tokens]


def expand(template: Template, view: ParamView, *, table: str = "", where: str = "URI") -> list[Expanded]:
    """Format ``template``; several results when one token forks (§6.2 step 3).
    ``where``: what the template is, for errors (a form body is one too)."""
    if not template.tokens:
        return [Expanded(template.raw, {})]
    prefix: list[str] = []
    suffixes: list[list[str]] | None = None  # after the fork: one text list per branch
    fork_values: list[Any] = []
    fork_name: str | None = None
    for part in template.parts:
        if isinstance(part, str):
            _append(prefix, suffixes, part)
            continue
        name, value = token_value(part, view)
        if _is_empty(value):
            if value is MISSING and name is not None and is_config_ref(name):
                raise unresolved(name, table, view.config, where, written=template.raw)
            if part.required:
                raise MissingParameter(
                    f"missing required parameter '{name or part.raw}' for {table or 'table'}", param=name
                )
            _append(prefix, suffixes, "")
            continue
        if isinstance(value, list):
            if len(value) == 1:
                value = value[0]
            elif part.multi and (part.max_values is None or len(value) <= part.max_values):
                joined = ",".join(to_text(v) for v in value)
                _append(prefix, suffixes, joined if part.no_encode else encode_component(joined))
                continue
            else:
                if suffixes is not None:
                    raise StatementError(
                        f"URI template of {table or 'table'} forks on two tokens "
                        f"('{fork_name}' and '{name}'); only one may fan out",
                        status=400,
                    )
                fork_name = name
                if part.multi:
                    unique = sorted({to_text(v) for v in value})
                    n = part.max_values or len(unique)
                    fork_values = [unique[i : i + n] for i in range(0, len(unique), n)]
                    suffixes = [
                        [encode_component(",".join(batch)) if not part.no_encode else ",".join(batch)]
                        for batch in fork_values
                    ]
                else:
                    fork_values = list(value)
                    suffixes = [[_format_scalar(v, part)] for v in fork_values]
                continue
        _append(prefix, suffixes, _format_scalar(value, part))
    base = "".join(prefix)
    if suffixes is None:
        return [Expanded(base, {})]
    return [
        Expanded(base + "".join(branch), {fork_name: value} if fork_name else {})
        for branch, value in zip(suffixes, fork_values)
    ]


def _append(prefix: list[str], suffixes: list[list[str]] | None, text: str) -> None:
    if suffixes is None:
        prefix.append(text)
    else:
        for branch in suffixes:
            branch.append(text)


def format_form(template: Template, view: ParamView, *, table: str = "") -> str:
    """A form-urlencoded body template is a URI template; the first fork wins."""
    return expand(template, view, table=table, where="form body")[0].uri
