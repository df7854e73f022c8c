"""Settings are read one way: through the declared keys (``qlgate/config_values.py``),
never by a ``.get`` on the document with a default of its own. A read of a settings
section by hand is how defaults came to live in several places and to disagree (the
docs said jobs.maxResultBytes defaults to 16 MiB while the code used 64 MiB)."""

from __future__ import annotations

import ast
from pathlib import Path

from qlgate.config_keys import KEYS

ROOT = Path(__file__).resolve().parents[1]
# the deployer's data (tables read it as {config.…}; auth entries are checked where a
# table uses one), not settings
DATA_SECTIONS = {"auth", "ebay", "tables"}
# the model itself: the only modules that look into the document by name
MODEL = {"config_keys.py", "config_schema.py", "config_values.py", "config_position.py"}


def hand_reads(source: str) -> list[str]:
    """Each ``x.get("key")`` or ``x["key"]`` of a declared settings key at the top level."""
    settings = {key.parts[0] for key in KEYS if key.parts} - DATA_SECTIONS
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            name = node.args[0] if node.args else None
        elif isinstance(node, ast.Subscript):
            name = node.slice
        else:
            continue
        if isinstance(name, ast.Constant) and name.value in settings:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found  # in the order ast.walk meets them


def test_no_module_reads_a_setting_by_hand():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "qlgate").rglob("*.py"))
        if path.name not in MODEL or path.parent.name != "qlgate"
        for line in hand_reads(path.read_text(encoding="utf-8"))
    ]
    assert not found, "read these through ConfigView (config.view):\n  " + "\n  ".join(found)


def test_the_check_finds_a_read_by_hand():
    found = hand_reads('section = config.get("gateway") or {}\nn = data["maxFanOut"]\nh = headers.get("x-id")')
    assert sorted(found) == ["1: config.get('gateway')", "2: data['maxFanOut']"]
