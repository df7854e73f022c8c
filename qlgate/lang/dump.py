"""A stable, readable text form of the AST, for the parser's golden files and for
looking at what a script parses to (``python3 -m qlgate.lang.dump script.ql``).

``repr`` of the AST is neither: it runs to one line per script, and a path's filter
holds a compiled function whose repr changes on every run. Here every node is its
class name and then its fields, one per line and indented, YAML-like; a node whose
fields are all plain values fits on one line, and text of several lines is shown as
lines (behind a ``|``), not as one string of ``\\n``. Paths show the steps they were read
as, quoted text the interpolation tokens found in it. The output depends only on the
AST, never on memory addresses or dict hashing, so it can be compared byte for byte.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import fields, is_dataclass
from pathlib import Path as FsPath
from typing import Any

from .ast import Pos
from .paths import Computed, Descendant, Filter, Index, Member, Path, Step, Wildcard
from .templates import Template, Token

_SCALARS = (str, int, float, bool, type(None))


def dump(node: Any) -> str:
    """The text form of ``node`` (a script, any AST node, or a value inside one)."""
    head, body = _render(node, 2)
    return "\n".join([head, *body]) + "\n"


def _render(value: Any, indent: int) -> tuple[str, list[str]]:
    """``value`` as a head (the text after ``name:`` or ``-``) and the lines under it,
    already indented by ``indent`` spaces."""
    inline = _inline(value)
    if inline is not None:
        return inline, []
    if isinstance(value, str):  # several lines: one per line, behind a gutter that keeps blank ones visible
        return "", [f"{' ' * indent}|{' ' + line if line else ''}" for line in value.split("\n")]
    if isinstance(value, Template):
        return f"Template {value.raw!r}", [line for token in value.tokens for line in _token(token, indent)]
    if isinstance(value, (tuple, list)):
        return "", _items(value, indent)
    if isinstance(value, dict):
        return "", _members(value.items(), indent, quoted=True)
    if is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__, _members(_fields(value), indent)
    raise TypeError(f"cannot dump {type(value).__name__}")


def _items(values: tuple[Any, ...] | list[Any], indent: int) -> list[str]:
    lines = []
    for item in values:
        head, body = _render(item, indent + 2)
        lines.append(f"{' ' * indent}- {head}".rstrip())
        lines.extend(body)
    return lines


def _members(pairs: Iterable[tuple[str, Any]], indent: int, *, quoted: bool = False) -> list[str]:
    """Fields (``name: …``) or, ``quoted``, the members of a JSON object (``'key': …``)."""
    lines = []
    for name, item in pairs:
        head, body = _render(item, indent + 2)
        label = repr(name) if quoted else name
        lines.append(f"{' ' * indent}{label}: {head}".rstrip())
        lines.extend(body)
    return lines


def _fields(node: Any) -> list[tuple[str, Any]]:
    """Fields shown in a dump: all but those left out of ``repr`` (a script's source)."""
    return [(f.name, getattr(node, f.name)) for f in fields(node) if f.repr]


def _inline(value: Any) -> str | None:
    """A one-line form, or None when the value needs lines of its own."""
    if isinstance(value, str) and "\n" in value:
        return None
    if isinstance(value, _SCALARS):
        return repr(value)
    if isinstance(value, Pos):
        return f"{value.line}:{value.column}"
    if isinstance(value, Path):
        return _path(value)
    if isinstance(value, Template):
        return f"Template {value.raw!r}" if not value.tokens else None
    if isinstance(value, tuple) and all(isinstance(v, _SCALARS) for v in value):
        return repr(value)
    if isinstance(value, (dict, list)) and not _has_template(value):
        return json.dumps(value, ensure_ascii=False)
    if is_dataclass(value) and not isinstance(value, type):
        shown = [(name, _inline(v)) for name, v in _fields(value) if isinstance(v, (*_SCALARS, Pos))]
        if len(shown) == len(_fields(value)) and all(text is not None for _, text in shown):
            args = ", ".join(f"{name}={text}" for name, text in shown)
            return f"{type(value).__name__}({args})"
    return None


def _has_template(value: Any) -> bool:
    if isinstance(value, Template):
        return True
    if isinstance(value, dict):
        return any(_has_template(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_template(v) for v in value)
    return False


def _path(path: Path) -> str:
    steps = ", ".join(_step(step) for step in path.steps)
    marks = "".join([" rooted" if path.rooted else "", " multi" if path.multi else ""])
    return f"Path {path.text!r} [{steps}]{marks}"


def _step(step: Step) -> str:
    if isinstance(step, Member):
        return f"Member {step.name!r}"
    if isinstance(step, Index):
        return f"Index {step.index}"
    if isinstance(step, Wildcard):
        return "Wildcard"
    if isinstance(step, Descendant):
        return "Descendant *" if step.name is None else f"Descendant {step.name!r}"
    if isinstance(step, Filter):
        return f"Filter {step.expr.text!r}"
    if isinstance(step, Computed):
        return f"Computed {step.expr.text!r}"
    raise TypeError(f"unknown path step {step!r}")


def _token(token: Token, indent: int) -> list[str]:
    """One interpolation token: where it starts, its modifiers, what it refers to."""
    flags = [name for name in ("required", "block", "multi", "no_encode") if getattr(token, name)]
    if token.max_values is not None:
        flags.append(f"max_values={token.max_values}")
    head = f"{' ' * indent}Token {token.raw!r} at {token.offset}" + "".join(f", {flag}" for flag in flags)
    if not token.body.tokens:
        return [f"{head}, body {token.body.raw!r}"]
    return [f"{head}, body:", *_token_body(token.body, indent + 2)]


def _token_body(body: Template, indent: int) -> list[str]:
    head, lines = _render(body, indent + 2)
    return [f"{' ' * indent}{head}", *lines]


def main(argv: list[str]) -> int:
    from .parser import parse

    for name in argv or ["-"]:
        text = sys.stdin.read() if name == "-" else FsPath(name).read_text(encoding="utf-8")
        sys.stdout.write(dump(parse(text, origin=name)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
