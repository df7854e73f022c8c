"""Golden files for the planner: ``goldens/plans/NAME.ql`` → ``NAME.plan``, the plan
as ``qlgate.engine.plan_text`` renders it (each statement with what it waits for
and the write it follows), or the compile error a person would see.

A change to the planner shows up as a diff of these files in review. After an
intended change, rewrite them and read the diff before committing::

    QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/engine/test_goldens.py tests/tables/test_goldens.py

To add a case, write the ``.ql`` file (a leading ``--`` comment says what it shows),
run that command and check the new ``.plan`` by eye.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from qlgate.engine.plan_text import render_plan
from qlgate.engine.planner import compile_script
from qlgate.errors import CompileError
from qlgate.lang.parser import parse
from tests.goldens import check_golden, orphans, read_input

PLANS = Path(__file__).parent / "goldens" / "plans"
COMMAND = "QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/engine/test_goldens.py tests/tables/test_goldens.py"


def plan_text(script: Path) -> str:
    try:
        return render_plan(compile_script(parse(read_input(script), origin=script.name)))
    except CompileError as error:
        return f"error at line {error.line}, column {error.column}: {error.message}\n"


@pytest.mark.parametrize("script", sorted(PLANS.glob("*.ql")), ids=lambda p: p.stem)
def test_script_plans_to_its_golden(script: Path):
    check_golden(script.with_suffix(".plan"), plan_text(script), COMMAND)


def test_every_plan_has_its_script_and_the_folder_is_found():
    assert orphans(PLANS, ".plan", ".ql") == []
    assert len(list(PLANS.glob("*.ql"))) >= 10  # an empty parametrization would pass silently


def test_a_changed_output_fails_with_a_diff(tmp_path, monkeypatch):
    monkeypatch.delenv("QLGATE_UPDATE_GOLDENS", raising=False)
    golden = tmp_path / "case.plan"
    golden.write_text("1: a = 1\n    json\n", encoding="utf-8")
    check_golden(golden, "1: a = 1\n    json\n", COMMAND)
    with pytest.raises(pytest.fail.Exception, match=r"(?s)differs from case\.plan.*-    json\n\+    json  waits for b"):
        check_golden(golden, "1: a = 1\n    json  waits for b\n", COMMAND)
    monkeypatch.setenv("QLGATE_UPDATE_GOLDENS", "1")
    check_golden(golden, "new\n", COMMAND)
    assert golden.read_text(encoding="utf-8") == "new\n"
