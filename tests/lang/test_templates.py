"""Interpolation: whole tokens keep JSON types, mixed strings substitute scalars
and leave everything else verbatim, nested tokens resolve inside out."""

import pytest

from qlgate.lang.templates import TemplateSyntaxError, interpolate, interpolate_text, parse_template
from qlgate.values import MISSING

SCOPE = {
    "n": 0,
    "flag": False,
    "rows": [{"id": "1", "p": 2}, {"id": "2"}],
    "obj": {"k": [1, 2]},
    "config": {"safari": {"key": "K1"}, "ua": "safari"},
    "empty": "",
}


def lookup(name):
    return SCOPE.get(name, MISSING)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("{obj.k}", [1, 2]),  # whole token: typed
        ("{rows.id}", ["1", "2"]),  # a path on an array maps over its elements
        ("{rows.p}", [2]),  # missing results are dropped
        ("{rows[0].id}", "1"),  # the name ends at '['
        ("{config.{config.ua}.key}", "K1"),  # nested token
        ("{nope}", MISSING),
        ("id-{n}-{flag}", "id-0-false"),  # falsy scalars are substituted
        ("x{obj}y{nope}", "x{obj}y{nope}"),  # objects and missing stay verbatim
        ("{obj.$..k}", [1, 2]),
        ('{"a": 1}', MISSING),  # not a reference: unresolved
        ("plain", "plain"),
    ],
)
def test_interpolate(text, expected):
    assert interpolate(parse_template(text), lookup) == expected


def test_header_style_interpolation_blanks_unresolved_tokens():
    assert interpolate_text(parse_template("a{nope}b{n}"), lookup, unresolved="") == "ab0"


def test_modifiers():
    token = parse_template("{20|^#`ItemID}").whole_token
    assert (token.max_values, token.multi, token.required, token.block, token.no_encode) == (20, True, True, True, True)
    assert token.name == "ItemID"


def test_unterminated_token_reports_its_offset():
    with pytest.raises(TemplateSyntaxError) as info:
        parse_template("ok {itemid")
    assert info.value.offset == 3


def test_names_for_dependency_analysis():
    assert parse_template("{a.b} {c[0]} {config.{d}.e} {^f}").names() == {"a", "c", "config", "d", "f"}
