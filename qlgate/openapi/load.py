"""Reading a spec file: JSON, or YAML (most published OpenAPI documents are YAML).

YAML goes through PyYAML's ``safe_load`` (no tags that build Python objects), and
dates, which YAML turns into ``datetime`` objects, are kept as the text written,
so an ``example: 2024-01-01`` stays a string in the tables. PyYAML is the
``openapi`` extra, imported only for a YAML document: JSON needs nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..extras import require
from .schemas import SpecError


def _load_yaml(text: str, file: Path) -> Any:
    if file.suffix.lower() not in (".yaml", ".yml"):
        try:  # JSON is YAML too: a JSON document under another name needs no PyYAML
            return json.loads(text)
        except ValueError:
            pass
    yaml: Any = require("yaml", "openapi", f"reading the YAML document {file}")

    class Loader(yaml.SafeLoader):
        """SafeLoader without the timestamp resolver: dates stay text."""

    Loader.yaml_implicit_resolvers = {
        key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    try:
        return yaml.load(text, Loader=Loader)
    except yaml.YAMLError as e:
        raise SpecError(f"{file}: not YAML: {e}") from None


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
        data = _load_yaml(text, file)
    if not isinstance(data, dict):
        raise SpecError(f"{file}: the document is not an object")
    return data
