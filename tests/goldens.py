"""Golden files for the parser, the engine and the tables: an input beside the exact
output it must produce, compared byte for byte. One environment variable rewrites
every output, so one command regenerates them all:

    QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/lang/test_goldens.py tests/engine/test_goldens.py tests/tables/test_goldens.py

Then read ``git diff tests/*/goldens``: the diff is the review of what changed.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

UPDATE_VARIABLE = "QLGATE_UPDATE_GOLDENS"


def updating() -> bool:
    return os.environ.get(UPDATE_VARIABLE) == "1"


def read_input(path: Path) -> str:
    """A case exactly as written (``newline=""`` leaves line endings alone)."""
    with path.open(encoding="utf-8", newline="") as f:
        return f.read()


def check_golden(expected_file: Path, actual: str, command: str) -> None:
    """Compare ``actual`` with the golden file, or (``QLGATE_UPDATE_GOLDENS=1``) rewrite
    it. A difference fails with a unified diff and the command that accepts it."""
    if updating():
        if not expected_file.exists() or expected_file.read_text(encoding="utf-8") != actual:
            expected_file.write_text(actual, encoding="utf-8")
        return
    if not expected_file.exists():
        pytest.fail(f"{expected_file.name} is missing: run {command}", pytrace=False)
    expected = expected_file.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                f"{expected_file.name} (golden)",
                f"{expected_file.name} (now)",
            )
        )
        pytest.fail(f"output differs from {expected_file.name}; if intended, run {command}\n{diff}", pytrace=False)


def orphans(folder: Path, output_suffix: str, input_suffix: str) -> list[str]:
    """Outputs whose input was renamed or deleted (they would go stale unnoticed)."""
    return [
        p.name
        for p in sorted(folder.glob(f"*{output_suffix}"))
        if not p.with_name(p.name[: -len(output_suffix)] + input_suffix).exists()
    ]
