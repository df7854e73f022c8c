"""Interpolation tokens inside quoted text (spec §5, §6.1).

Quoted text is parsed once, at compile time, into a ``Template``: literal
pieces and ``Token`` objects. Filling a template later is a walk over those
parts with a lookup function, so the hot path never re-scans strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..values import MISSING, is_scalar, to_text
from .filters import FilterSyntaxError
from .paths import Member, Path, PathSyntaxError, evaluate, parse_path

Lookup = Callable[[str], Any]
_LEADING_WORD = re.compile(r"[A-Za-z$:][A-Za-z0-9_:$]*")


class TemplateSyntaxError(ValueError):
    """An unterminated ``{`` in quoted text; ``offset`` is its index in the text."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Token:
    raw: str  # the token as written, braces included
    body: Template  # text inside the braces after the modifiers
    offset: int  # index of '{' in the enclosing text
    required: bool = False  # ^
    block: bool = False  # #
    multi: bool = False  # |  or n|
    max_values: int | None = None  # n|
    no_encode: bool = False  # `

    def reference_text(self, lookup: Lookup) -> str | None:
        """The reference with nested tokens spliced in; None if one is unresolved."""
        if not self.body.tokens:
            return self.body.raw
        pieces = []
        for part in self.body.parts:
            if isinstance(part, str):
                pieces.append(part)
            else:
                value = resolve_token(part, lookup)
                if not is_scalar(value):
                    return None
                pieces.append(to_text(value))
        return "".join(pieces)

    @property
    def name(self) -> str | None:
        """The leading word of a token without nested tokens (dependency analysis)."""
        if self.body.tokens:
            return None
        ref = parse_reference(self.body.raw)
        return ref[0] if ref else None


@dataclass(frozen=True, slots=True)
class Template:
    raw: str
    parts: tuple[str | Token, ...]
    tokens: tuple[Token, ...] = field(default=())

    @property
    def whole_token(self) -> Token | None:
        """The token when the text is exactly one token (typed substitution)."""
        if len(self.parts) == 1 and isinstance(self.parts[0], Token):
            return self.parts[0]
        return None

    def names(self) -> set[str]:
        """Every leading variable word referenced, nested tokens included."""
        out: set[str] = set()
        for tok in self.tokens:
            out |= tok.body.names()
            head = tok.body.parts[0] if tok.body.parts and isinstance(tok.body.parts[0], str) else ""
            word = _LEADING_WORD.match(head)
            if word and (word.end() == len(head) or head[word.end()] in ".["):
                out.add(word.group())
        return out

    def __str__(self) -> str:
        return self.raw


def _parse_modifiers(body: str) -> tuple[dict, int]:
    mods: dict[str, Any] = {}
    i = 0
    while i < len(body):
        c = body[i]
        if c.isdigit():
            j = i
            while j < len(body) and body[j].isdigit():
                j += 1
            if j < len(body) and body[j] == "|" and "max_values" not in mods:
                mods["max_values"] = int(body[i:j])
                mods["multi"] = True
                i = j + 1
                continue
            break
        if c == "^" and "required" not in mods:
            mods["required"] = True
        elif c == "#" and "block" not in mods:
            mods["block"] = True
        elif c == "|" and "multi" not in mods:
            mods["multi"] = True
        elif c == "`" and "no_encode" not in mods:
            mods["no_encode"] = True
        else:
            break
        i += 1
    return mods, i


@lru_cache(maxsize=8192)
def parse_template(text: str) -> Template:
    """Split text into literals and tokens; an unterminated ``{`` is an error."""
    if "{" not in text:
        return Template(text, (text,) if text else (), ())
    parts: list[str | Token] = []
    tokens: list[Token] = []
    literal_start = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "{":
            i += 1
            continue
        depth, j = 0, i
        while j < n:
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j >= n:
            raise TemplateSyntaxError("unterminated '{' in interpolation token", i)
        if literal_start < i:
            parts.append(text[literal_start:i])
        inner = text[i + 1 : j]
        mods, skip = _parse_modifiers(inner)
        try:
            body = parse_template(inner[skip:])
        except TemplateSyntaxError as e:  # pragma: no cover - balanced by construction
            raise TemplateSyntaxError(str(e), i + 1 + skip + e.offset) from None
        token = Token(raw=text[i : j + 1], body=body, offset=i, **mods)
        parts.append(token)
        tokens.append(token)
        i = literal_start = j + 1
    if literal_start < n:
        parts.append(text[literal_start:])
    return Template(text, tuple(parts), tuple(tokens))


@lru_cache(maxsize=8192)
def parse_reference(text: str) -> tuple[str, Path | None] | None:
    """``name.path`` → (name, path). The name ends at the first ``.`` or ``[``
    (spec §5.1). None when the text is not a reference at all."""
    text = text.strip()
    if not text:
        return None
    end = len(text)
    for k, c in enumerate(text):
        if c in ".[":
            end = k
            break
    name = text[:end]
    if not name or (any(c in name for c in " \t\n\"'{}(),=:<>") and not _is_word_with_colon(name)):
        return None
    rest = text[end:]
    if not rest:
        return name, None
    if rest.startswith(".") and not rest.startswith(".."):
        rest = rest[1:]
    try:
        return name, parse_path(rest)
    except (PathSyntaxError, FilterSyntaxError):
        return None


def _is_word_with_colon(name: str) -> bool:
    return all(c.isalnum() or c in "_$:" for c in name)


def resolve_reference(name: str, path: Path | None, lookup: Lookup) -> Any:
    """Value of ``name`` then ``path`` with the token mapping rule (§5.4): a path
    on an array value maps over its elements, flattening arrays one level."""
    value = lookup(name)
    if path is None or value is MISSING:
        return value
    if isinstance(value, list) and not path.rooted and path.steps and isinstance(path.steps[0], Member):
        collected: list[Any] = []
        for element in value:
            found = evaluate(path, element)
            if found is MISSING:
                continue
            if isinstance(found, list):
                collected.extend(found)
            else:
                collected.append(found)
        return collected if collected else MISSING
    return evaluate(path, value)


def resolve_token(token: Token, lookup: Lookup) -> Any:
    text = token.reference_text(lookup)
    if text is None:
        return MISSING
    ref = parse_reference(text)
    if ref is None:
        return MISSING
    return resolve_reference(ref[0], ref[1], lookup)


def interpolate(template: Template, lookup: Lookup) -> Any:
    """Fill quoted text (§5.3): a whole token keeps its JSON type; in mixed text
    scalars are substituted and anything else is left verbatim."""
    if not template.tokens:
        return template.raw
    whole = template.whole_token
    if whole is not None:
        return resolve_token(whole, lookup)
    return interpolate_text(template, lookup)


def interpolate_text(template: Template, lookup: Lookup, *, unresolved: str | None = None) -> str:
    """Mixed-string rules always producing text. With ``unresolved`` set, tokens
    that are missing, null, lists or objects become that text (headers: "")."""
    if not template.tokens:
        return template.raw
    pieces = []
    for part in template.parts:
        if isinstance(part, str):
            pieces.append(part)
            continue
        value = resolve_token(part, lookup)
        if is_scalar(value):
            pieces.append(to_text(value))
        else:
            pieces.append(part.raw if unresolved is None else unresolved)
    return "".join(pieces)
