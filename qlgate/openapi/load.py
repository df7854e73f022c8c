"""Reading a spec file: JSON, or YAML (most published OpenAPI documents are YAML).

YAML goes through PyYAML's ``safe_load`` (no tags that build Python objects), and
dates, which YAML turns into ``datetime`` objects, are kept as the text written,
so an ``example: 2024-01-01`` stays a string in the tables.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from .schemas import SpecError


class _Loader(yaml.SafeLoader):
    """SafeLoader without the timestamp resolver: dates stay text."""


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_spec(path: str | Path) -> dict[str, Any]:
    """The document in ``path`` (``.json``, ``.yaml`` or ``.yml``; JSON is tried first
    for any other name)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError(f"cannot read {file}: {e}") from None
    data: Any
    if file.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except ValueError as e:
            raise SpecError(f"{file}: not JSON: {e}") from None
    else:
        try:
            data = yaml.load(text, Loader=_Loader)
        except yaml.YAMLError as e:
            raise SpecError(f"{file}: not YAML: {e}") from None
    if not isinstance(data, dict):
        raise SpecError(f"{file}: the document is not an object")
    return data
