"""``qlgate import openapi``: a spec file → table files, plus the config to add.

Writes, under ``--out``, one ``<operation>.ql`` per operation (named
``PREFIX.<operation>``), a ``<operation>.j2`` beside each one with a JSON body, and
the directory's shared patch ``<last word of PREFIX>.py``. The base URL is read
from config ``tables.<PREFIX>.baseUrl``, so pointing the tables at a test server,
a sandbox or production is a config change; the importer prints the config to
add, with the spec's own server as the value. Output is a pure function of the
spec, so re-running gives the same bytes; files that would change are only
overwritten with ``force``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..values import to_text
from .load import load_spec
from .model import Api, Operation, body_fields
from .normalise import read_api
from .schemas import SpecError
from .writer import Target, body_template, table_text

_PREFIX_WORD = r"[A-Za-z][A-Za-z0-9_]*"


def patch_text(title: str) -> str:
    # the title as a Python literal inside the module's docstring: repr escapes line
    # breaks and backslashes, and every '"' is escaped so that it cannot end the docstring
    quoted = repr(title).replace('"', '\\"')
    return (
        f'"""Shared by every table imported from {quoted} (``qlgate import openapi``): optional\n'
        "query parameters and headers without a value are not sent, a required header without\n"
        "one is an error naming its column, and an API paging by page number gets its page from\n"
        'the statement\'s offset. The logic lives in qlgate/openapi/runtime.py."""\n\n'
        "from qlgate.openapi import runtime\n\n"
        "patch_uri = runtime.patch_uri\n"
        "patch_headers = runtime.patch_headers\n"
    )


def _literal(value: Any) -> str:
    return json.dumps(to_text(value), ensure_ascii=False)


def example(op: Operation, name: str) -> str | None:
    """A runnable ``Example:`` script from the spec's examples, or None when a
    required value has none (the console then writes one to fill in)."""
    required = [p for p in op.params if p.required]  # a required header is a column like the others
    if any(p.example is None for p in required):
        return None
    where = " and ".join(f"{p.column} = {_literal(p.example)}" for p in required)
    if op.verb == "select":
        paging = " limit 5" if op.paging.limit else ""
        return f"select * from {name}{' where ' + where if where else ''}{paging}"
    if op.verb == "delete":
        return f"delete from {name}{' where ' + where if where else ''}"
    if op.verb == "insert" and op.body is not None and op.body.schema.get("properties"):
        picked = [(p.column, p.example) for p in required]
        picked += [(path, ex) for path, ex in body_examples(op.body.schema) if path not in dict(picked)]
        if not picked:
            return None
        columns = ", ".join(c for c, _ in picked)
        return f"insert into {name} ({columns}) values ({', '.join(_literal(v) for _, v in picked)})"
    return None


def body_examples(schema: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """(column, example) for the body leaves whose schema has a scalar example."""
    kinds = {path for path, _kind, _req in body_fields(schema, prefix)}
    out: list[tuple[str, Any]] = []

    def walk(node: dict[str, Any], path: str) -> None:
        for name, member in (node.get("properties") or {}).items():
            here = f"{path}{name}"
            if here in kinds and isinstance(member.get("example"), (str, int, float, bool)):
                out.append((here, member["example"]))
            elif member.get("properties"):
                walk(member, here + ".")

    walk(schema, prefix)
    return out


def nested(dotted: str, value: Any) -> dict[str, Any]:
    """``a.b`` and a value → ``{"a": {"b": value}}``."""
    out: Any = value
    for part in reversed(dotted.split(".")):
        out = {part: out}
    return out


def config_snippet(api: Api, prefix: str) -> dict[str, Any]:
    """The config to add: the base URL (the spec's server), API keys, the auth entry."""
    own: dict[str, Any] = {"baseUrl": api.server}
    for op in api.operations:
        for _name, value in (*op.headers, *op.query):
            key = value.strip("{}").rsplit(".", 1)[-1]
            own.setdefault(key, "${" + key.upper() + "}")
    snippet: dict[str, Any] = {"tables": nested(prefix, own)}
    if api.auth is not None:
        snippet["auth"] = {prefix: api.auth}
    return snippet


@dataclass
class Imported:
    files: dict[str, str]
    config: dict[str, Any]
    tables: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # parameters left out, and why


def generate(doc: dict[str, Any], prefix: str) -> Imported:
    """Relative path → text for everything ``prefix``'s import writes."""
    if not re.fullmatch(rf"{_PREFIX_WORD}(\.{_PREFIX_WORD})*", prefix):
        raise SpecError(f"--name {prefix!r} is not a table name prefix (words joined by dots: acme.pets)")
    api = read_api(doc, prefix)
    patch = prefix.rsplit(".", 1)[-1] + ".py"
    base = "{config.tables." + prefix + ".baseUrl}"
    files: dict[str, str] = {}
    tables = []
    for op in api.operations:
        name = f"{prefix}.{op.operation_id}"
        target = Target(name, op.operation_id, base, patch, example(op, name))
        files[f"{op.operation_id}.ql"] = table_text(op, target)
        body = body_template(op, target)
        if body is not None:
            files[f"{op.operation_id}.j2"] = body
        tables.append(name)
    files[patch] = patch_text(api.title)
    return Imported(files, config_snippet(api, prefix), tables, api.warnings)


@dataclass
class Written:
    written: list[str]
    unchanged: list[str]
    refused: list[str]


def write(files: dict[str, str], out: Path, *, force: bool) -> Written:
    """Write ``files`` under ``out``. A file already there with other content is only
    replaced with ``force``; without it nothing at all is written."""
    result = Written([], [], [])
    for rel, text in sorted(files.items()):
        path = out / rel
        if path.exists():
            if path.read_text(encoding="utf-8") == text:
                result.unchanged.append(rel)
            elif not force:
                result.refused.append(rel)
    if result.refused:
        return result
    for rel, text in sorted(files.items()):
        if rel in result.unchanged:
            continue
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        result.written.append(rel)
    return result


def import_file(spec: str | Path, prefix: str, out: str | Path, *, force: bool = False) -> tuple[Imported, Written]:
    imported = generate(load_spec(spec), prefix)
    return imported, write(imported.files, Path(out), force=force)
