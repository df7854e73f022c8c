"""Golden files: scripts beside the exact output they must produce.

- ``goldens/parse/NAME.ql`` → ``NAME.ast``: the AST dump (``qlgate.lang.dump``).
- ``goldens/errors/NAME.ql`` → ``NAME.txt``: the syntax error as a person sees it —
  position, message and the source line with a caret.

A change in the parser shows up as a diff of these files in review, which says more
than a changed assertion. After an intended change, rewrite them with one command
and read the diff before committing::

    QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/lang/test_goldens.py

To add a case, write the ``.ql`` file and run that command; goldens/README.md says more.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from qlgate.errors import QlSyntaxError
from qlgate.lang.dump import dump
from qlgate.lang.parser import parse

GOLDENS = Path(__file__).parent / "goldens"
UPDATE = os.environ.get("QLGATE_UPDATE_GOLDENS") == "1"
COMMAND = "QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/lang/test_goldens.py"


def cases(kind: str) -> list[Path]:
    return sorted((GOLDENS / kind).glob("*.ql"))


def read_script(script: Path) -> str:
    # the script exactly as written: newline="" leaves line endings alone
    with script.open(encoding="utf-8", newline="") as f:
        return f.read()


def check_golden(expected_file: Path, actual: str) -> None:
    """Compare with the golden file, or (QLGATE_UPDATE_GOLDENS=1) rewrite it."""
    if UPDATE:
        if not expected_file.exists() or expected_file.read_text(encoding="utf-8") != actual:
            expected_file.write_text(actual, encoding="utf-8")
        return
    if not expected_file.exists():
        pytest.fail(f"{expected_file.name} is missing: run {COMMAND}")
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
        pytest.fail(f"output differs from {expected_file.name}; if intended, run {COMMAND}\n{diff}", pytrace=False)


@pytest.mark.parametrize("script", cases("parse"), ids=lambda p: p.stem)
def test_script_parses_to_its_golden_ast(script: Path):
    check_golden(script.with_suffix(".ast"), dump(parse(read_script(script))))


@pytest.mark.parametrize("script", cases("errors"), ids=lambda p: p.stem)
def test_bad_script_fails_with_its_golden_message(script: Path):
    with pytest.raises(QlSyntaxError) as info:
        parse(read_script(script), origin=script.name)
    check_golden(script.with_suffix(".txt"), info.value.pretty() + "\n")


@pytest.mark.parametrize("kind, output", [("parse", ".ast"), ("errors", ".txt")])
def test_every_golden_has_its_script(kind: str, output: str):
    """A golden whose script was renamed or deleted would otherwise go stale unnoticed."""
    orphans = [p.name for p in sorted((GOLDENS / kind).glob(f"*{output}")) if not p.with_suffix(".ql").exists()]
    assert orphans == []


def test_the_golden_folders_are_found():
    """An empty parametrization passes silently; a moved folder must not."""
    assert len(cases("parse")) >= 25 and len(cases("errors")) >= 15
