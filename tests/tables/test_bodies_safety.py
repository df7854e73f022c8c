"""Jinja2 body templates run sandboxed, and typed JSON bodies (json_body.py) are strict
JSON with exact integers."""

import json
from pathlib import Path

import pytest

from qlgate.errors import InvalidParameter
from qlgate.tables.bodies import BodyTemplate, TemplateError
from qlgate.tables.files import CodeDirs
from qlgate.tables.json_body import convert, json_body
from qlgate.tables.params import ParamView


def _render(tmp_path: Path, source: str, params: dict) -> str:
    (tmp_path / "b.j2").write_text(source)
    body = BodyTemplate.load("b.j2", "application/json", None, CodeDirs.of([tmp_path]))
    return body.render(ParamView(statement={}, variables={}), params, {})


@pytest.mark.parametrize(
    "expression",
    [
        "lipsum.__globals__.os.system('touch {m}')",
        "params.__class__.__mro__[1].__subclasses__()",
        "cycler.__init__.__globals__.os.popen('touch {m}')",
    ],
)
def test_a_hostile_template_runs_no_code(tmp_path: Path, expression: str):
    marker = tmp_path / "PWNED"
    with pytest.raises(TemplateError):
        _render(tmp_path, "{{ " + expression.format(m=marker) + " }}", {})
    assert not marker.exists()


def test_the_typed_body_filters_still_work_in_the_sandbox(tmp_path: Path):
    source = '{{ {"a": params | field("a", "integer"), "b": {"c": params | field("b.c", "string[]")}} | json_body }}'
    assert json.loads(_render(tmp_path, source, {"a": "7", "b.c": "x"})) == {"a": 7, "b": {"c": ["x"]}}


@pytest.mark.parametrize("text", ["NaN", "nan", "Infinity", "-Infinity", "1e400", "-1e999", "0x10", "1_000", ""])
def test_a_number_column_must_be_a_finite_json_number(text: str):
    with pytest.raises(InvalidParameter) as e:
        convert(text, "number", "price.value")
    assert "column price.value" in str(e.value)


def test_non_finite_floats_are_refused_and_never_written():
    for value in (float("nan"), float("inf")):
        with pytest.raises(InvalidParameter):
            convert(value, "number", "x")
    with pytest.raises(InvalidParameter):
        json_body({"a": float("nan")})


def test_integers_are_exact():
    assert convert("12345678901234567890", "integer", "n") == 12345678901234567890
    assert convert(" 12345678901234567890123 ", "number", "n") == 12345678901234567890123
    assert convert("5.0", "integer", "n") == 5 and convert("1e3", "integer", "n") == 1000
    assert convert(2**70, "integer", "n") == 2**70
    assert str(json_body({"n": convert("12345678901234567890", "integer", "n")})) == '{"n":12345678901234567890}'
    for bad in ("12345678901234567890.5", "1.5", 1.5, "1e500"):
        with pytest.raises(InvalidParameter, match="column n"):
            convert(bad, "integer", "n")


def test_ordinary_numbers_are_unchanged():
    assert convert("1.25", "number", "x") == 1.25 and convert(" 7 ", "number", "x") == 7
    assert convert(3, "number", "x") == 3 and convert(2.5, "number", "x") == 2.5
    assert convert(["1", 2], "integer[]", "x") == [1, 2]
