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

from pathlib import Path

import pytest

from qlgate.errors import QlSyntaxError
from qlgate.lang.dump import dump
from qlgate.lang.parser import parse
from tests.goldens import check_golden, orphans, read_input

GOLDENS = Path(__file__).parent / "goldens"
COMMAND = "QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/lang/test_goldens.py"


def cases(kind: str) -> list[Path]:
    return sorted((GOLDENS / kind).glob("*.ql"))


@pytest.mark.parametrize("script", cases("parse"), ids=lambda p: p.stem)
def test_script_parses_to_its_golden_ast(script: Path):
    check_golden(script.with_suffix(".ast"), dump(parse(read_input(script))), COMMAND)


@pytest.mark.parametrize("script", cases("errors"), ids=lambda p: p.stem)
def test_bad_script_fails_with_its_golden_message(script: Path):
    with pytest.raises(QlSyntaxError) as info:
        parse(read_input(script), origin=script.name)
    check_golden(script.with_suffix(".txt"), info.value.pretty() + "\n", COMMAND)


@pytest.mark.parametrize("kind, output", [("parse", ".ast"), ("errors", ".txt")])
def test_every_golden_has_its_script(kind: str, output: str):
    """A golden whose script was renamed or deleted would otherwise go stale unnoticed."""
    assert orphans(GOLDENS / kind, output, ".ql") == []


def test_the_golden_folders_are_found():
    """An empty parametrization passes silently; a moved folder must not."""
    assert len(cases("parse")) >= 25 and len(cases("errors")) >= 15
