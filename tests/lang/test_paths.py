"""Paths over JSON values: single matches stay bare, multi-valued paths are arrays."""

import pytest

from qlgate.lang.paths import evaluate, parse_path, resultset
from qlgate.values import MISSING

DOC = {"a": {"b": [{"id": 1, "p": 5}, {"id": 2, "p": 1}], "x-y": "dash"},
       "items": [{"name": "A", "tags": ["t1"]}, {"name": "B", "tags": ["t2", "t3"]}]}


@pytest.mark.parametrize("path, expected", [
    ("a.b[1].id", 2),
    ("a['x-y']", "dash"),
    ("'a'.b[0].p", 5),
    ("a.b.id", MISSING),                      # a member step does not map over arrays
    ("a.b[*].id", [1, 2]),
    ("a..id", [1, 2]),
    ("$..tags", ["t1", "t2", "t3"]),          # descendant results flatten one level
    ("items[?(@.name == 'B')].tags", [["t2", "t3"]]),
    ("a.b[?(@.p > 2 && @.id != 9)].id", [1]),
    ("a.b[(@.length-1)].id", 2),
    ("nothing..here", MISSING),
])
def test_evaluate(path, expected):
    assert evaluate(parse_path(path), DOC) == expected


def test_resultset_takes_the_first_element_between_steps():
    body = {"r": {"list": [{"item": [1, 2]}, {"item": [3]}]}}
    assert resultset(body, "r.list.item") == [1, 2]
    assert resultset(body, "r.absent") == []
    assert resultset(body, "") is body


def test_paths_are_parsed_once():
    assert parse_path("a.b[0]") is parse_path("a.b[0]")
