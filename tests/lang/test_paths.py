"""Paths over JSON values: single matches stay bare, multi-valued paths are arrays."""

import re

import pytest

from qlgate.lang import paths
from qlgate.lang.filters import FilterSyntaxError
from qlgate.lang.paths import PathSyntaxError, PathTooCostly, evaluate, matches, parse_path, resultset
from qlgate.values import MISSING

DOC = {
    "a": {"b": [{"id": 1, "p": 5}, {"id": 2, "p": 1}], "x-y": "dash"},
    "items": [{"name": "A", "tags": ["t1"]}, {"name": "B", "tags": ["t2", "t3"]}],
}


@pytest.mark.parametrize(
    "path, expected",
    [
        ("a.b[1].id", 2),
        ("a['x-y']", "dash"),
        ("'a'.b[0].p", 5),
        ("a.b.id", MISSING),  # a member step does not map over arrays
        ("a.b[*].id", [1, 2]),
        ("a..id", [1, 2]),
        ("$..tags", ["t1", "t2", "t3"]),  # descendant results flatten one level
        ("items[?(@.name == 'B')].tags", [["t2", "t3"]]),
        ("a.b[?(@.p > 2 && @.id != 9)].id", [1]),
        ("a.b[(@.length-1)].id", 2),
        ("nothing..here", MISSING),
    ],
)
def test_evaluate(path, expected):
    assert evaluate(parse_path(path), DOC) == expected


def test_resultset_takes_the_first_element_between_steps():
    body = {"r": {"list": [{"item": [1, 2]}, {"item": [3]}]}}
    assert resultset(body, "r.list.item") == [1, 2]
    assert resultset(body, "r.absent") == []
    assert resultset(body, "") is body


def test_paths_are_parsed_once():
    assert parse_path("a.b[0]") is parse_path("a.b[0]")


@pytest.mark.parametrize(
    "text, multi",
    [("a.b[0]", False), ("a[*]", True), ("a..b", True), ("a[?('@.x')]", True), ("a[(@.length-1)]", False)],
)
def test_a_path_is_multi_valued_only_with_wildcards_descendants_or_filters(text, multi):
    assert parse_path(text).multi is multi


def test_head_and_the_path_without_it_serve_aliases():
    path = parse_path("s['x-y'].z")
    assert path.head == "s"
    rest = path.without_head()
    assert (rest.text, rest.head) == ("['x-y'].z", "x-y")
    assert evaluate(rest, {"x-y": {"z": 1}}) == 1
    assert parse_path("$.a").head == "a" and parse_path("[0]").head is None


def test_length_and_negative_computed_indexes():
    assert evaluate(parse_path("a.b.length"), DOC) == 2
    assert evaluate(parse_path("items[(@.length-2)].name"), DOC) == "A"
    assert evaluate(parse_path("items[(-1)].name"), DOC) == "B"  # counts from the end
    assert evaluate(parse_path("items[(5)].name"), DOC) is MISSING


def test_matches_lists_every_match_in_document_order():
    assert matches(parse_path("items[*].tags[*]"), DOC) == ["t1", "t2", "t3"]
    assert matches(parse_path("a.nothing"), DOC) == []


@pytest.mark.parametrize(
    "text, message, offset",
    [
        ("a.", "expected a name after '.'", 2),
        ("a..", "expected a name after '..'", 3),
        ("a[", "unterminated '['", 1),
        ("a[x]", "expected an index, '*', a quoted name or a filter", 2),
        ("a[0", "expected ']'", 3),
        ("a['b", "unterminated quoted name", 2),
        ("a[?x]", "expected '(' after '?'", 2),
        ("a[(@.b]", "unterminated expression", 2),
        ("a b", "unexpected character ' '", 1),
    ],
)
def test_bad_paths_say_what_and_where(text, message, offset):
    with pytest.raises(PathSyntaxError, match=re.escape(message)) as info:
        parse_path(text)
    assert info.value.offset == offset


def test_a_bad_filter_inside_a_path_is_a_filter_error():
    with pytest.raises(FilterSyntaxError):
        parse_path("a[?('@.x ==')]")


def test_a_path_that_would_visit_too_many_values_is_refused(monkeypatch):
    monkeypatch.setattr(paths, "MAX_VISITS", 1000)  # the real budget takes a second to spend
    shared: list = [0]
    for _ in range(12):  # 2**12 values reachable through a few shared lists
        shared = [shared, shared]
    with pytest.raises(PathTooCostly, match="more than 1,000 values"):
        matches(parse_path("$..*"), shared)
