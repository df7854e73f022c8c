"""Stable shapes (``with arrays``, qlgate.tables.shapes): the path rules on plain
values — a single value wrapped, an absent or null member made ``[]`` where its
parent exists, nested lists reached through arrays, ``..`` paths at any depth
that wrap and never add — and the clause in a table and a route, with the typed
errors for paths that are not paths."""

from __future__ import annotations

import pytest

from qlgate.errors import QlError, QlSyntaxError
from qlgate.lang.parser import parse
from qlgate.tables.shapes import ArrayPathError, ArrayPaths, array_paths
from qlgate.values import MISSING


def shaped(value, *paths):
    return ArrayPaths.compile(paths).apply(value)


# ---------------------------------------------------------------- one path


def test_a_single_value_is_wrapped_and_an_array_is_kept():
    assert shaped({"item": {"id": 1}}, "item") == {"item": [{"id": 1}]}
    assert shaped({"item": [{"id": 1}, {"id": 2}]}, "item") == {"item": [{"id": 1}, {"id": 2}]}
    assert shaped({"item": "text"}, "item") == {"item": ["text"]}
    assert shaped({"item": 0}, "item") == {"item": [0]}  # a falsy scalar is a value, not an absence


def test_one_hit_and_two_hits_have_the_same_shape():
    one = shaped({"searchResult": {"count": 1, "item": {"itemId": 7}}}, "searchResult.item")
    two = shaped({"searchResult": {"count": 2, "item": [{"itemId": 7}, {"itemId": 8}]}}, "searchResult.item")
    assert type(one["searchResult"]["item"]) is type(two["searchResult"]["item"]) is list
    assert one["searchResult"]["item"] == two["searchResult"]["item"][:1]


def test_an_absent_or_null_member_is_an_empty_array_where_its_parent_exists():
    assert shaped({"searchResult": {"count": 0}}, "searchResult.item") == {"searchResult": {"count": 0, "item": []}}
    assert shaped({"searchResult": {"item": None}}, "searchResult.item") == {"searchResult": {"item": []}}
    assert shaped({"searchResult": {}}, "searchResult.item") == {"searchResult": {"item": []}}


def test_nothing_is_added_where_the_parent_is_missing_or_not_an_object():
    assert shaped({"ack": "Success"}, "searchResult.item") == {"ack": "Success"}
    assert shaped({"searchResult": "none"}, "searchResult.item") == {"searchResult": "none"}
    assert shaped({"searchResult": None}, "searchResult.item") == {"searchResult": None}
    assert shaped("text", "item") == "text"
    assert shaped(None, "item") is None
    assert shaped(MISSING, "item") is MISSING


# ---------------------------------------------------------------- nested lists


def test_an_array_met_between_steps_is_shaped_element_by_element():
    value = {
        "item": [
            {"id": 1, "paymentMethod": "PayPal"},
            {"id": 2, "paymentMethod": ["PayPal", "Visa"]},
            {"id": 3},
        ]
    }
    assert shaped(value, "item.paymentMethod") == {
        "item": [
            {"id": 1, "paymentMethod": ["PayPal"]},
            {"id": 2, "paymentMethod": ["PayPal", "Visa"]},
            {"id": 3, "paymentMethod": []},
        ]
    }


def test_a_list_inside_a_list_is_wrapped_at_both_levels_in_either_order():
    single = {"item": {"id": 1, "shipTo": "US"}}
    expected = {"item": [{"id": 1, "shipTo": ["US"]}]}
    assert shaped(single, "item", "item.shipTo") == expected
    assert shaped({"item": {"id": 1, "shipTo": "US"}}, "item.shipTo", "item") == expected


def test_a_result_set_that_is_an_array_is_shaped_row_by_row():
    rows = [{"tags": "a"}, {"tags": ["b", "c"]}, {}]
    assert shaped(rows, "tags") == [{"tags": ["a"]}, {"tags": ["b", "c"]}, {"tags": []}]


def test_shaping_twice_changes_nothing_more():
    value = {"a": {"b": {"c": 1}}}
    once = shaped(value, "a.b", "a.b.c", "..c")
    assert shaped(once, "a.b", "a.b.c", "..c") == {"a": {"b": [{"c": [1]}]}}


# ---------------------------------------------------------------- anywhere


def test_a_leading_double_dot_wraps_the_member_at_any_depth_and_adds_nothing():
    value = {
        "Errors": {"Code": 1},
        "Item": {"Variations": {"Variation": {"SKU": "a"}}, "Nested": {"Errors": [{"Code": 2}]}},
        "Other": [{"Errors": {"Code": 3}}, {"None": True}],
    }
    assert shaped(value, "..Errors") == {
        "Errors": [{"Code": 1}],
        "Item": {"Variations": {"Variation": {"SKU": "a"}}, "Nested": {"Errors": [{"Code": 2}]}},
        "Other": [{"Errors": [{"Code": 3}]}, {"None": True}],
    }


def test_a_double_dot_path_of_several_names_matches_its_tail_only():
    value = {
        "Item": {"NameValueList": {"Name": "Size", "Value": "M"}, "Value": "kept"},
        "Deep": [{"NameValueList": [{"Name": "Colour", "Value": ["Red", "Blue"]}, {"Name": "Bare"}]}],
    }
    assert shaped(value, "..NameValueList.Value") == {
        "Item": {"NameValueList": {"Name": "Size", "Value": ["M"]}, "Value": "kept"},
        "Deep": [{"NameValueList": [{"Name": "Colour", "Value": ["Red", "Blue"]}, {"Name": "Bare"}]}],
    }


def test_names_may_hold_xml_prefixes_and_other_characters():
    assert shaped({"ns:list": {"ns:entry": 1}}, "ns:list.ns:entry") == {"ns:list": {"ns:entry": [1]}}
    assert shaped({"a-b": {"$t": 1}}, "a-b") == {"a-b": [{"$t": 1}]}


# ---------------------------------------------------------------- bad paths


@pytest.mark.parametrize("path", ["", ".", "a.", ".a", "a..b", "...a", "..", "a.b."])
def test_a_path_that_is_not_one_is_a_typed_error_naming_it(path):
    with pytest.raises(ArrayPathError) as caught:
        ArrayPaths.compile([path], line=7)
    assert isinstance(caught.value, QlError) and caught.value.status == 400
    assert "with arrays" in caught.value.message and f"'{path}'" in caught.value.message
    assert caught.value.line == 7


def test_the_compiled_form_is_kept_once_per_declaration():
    assert array_paths(("a", "b.c")) is array_paths(("a", "b.c"))
    assert array_paths(("a", "a")).paths == ("a",)


# ---------------------------------------------------------------- the clause


def test_a_table_mapping_declares_its_arrays_beside_its_resultset():
    script = parse(
        """create table shop.search
  on select get from "http://127.0.0.1/search?q={^q}"
     resultset 'searchResponse'
     with arrays 'results.item', '..Errors';"""
    )
    mapping = script.items[0].choices[0].mappings[0]
    assert mapping.resultset == "searchResponse"
    assert mapping.arrays == ("results.item", "..Errors")


def test_a_route_declares_the_arrays_of_its_answer():
    script = parse(
        """return {"items": []} via route '/s?q={q}' with optional params with arrays 'items', 'items.tags'
           using method get;"""
    )
    assert script.ret.route.arrays == ("items", "items.tags")
    assert script.ret.route.optional_params and script.ret.route.method == "get"


def test_a_bad_path_in_the_clause_is_a_syntax_error_with_its_position():
    with pytest.raises(QlSyntaxError) as caught:
        parse("""create table t\n  on select get from "http://x"\n     with arrays 'a', 'b..c';""")
    assert caught.value.line == 3
    assert "'b..c' is not a path" in caught.value.message


def test_the_clause_written_twice_in_one_mapping_is_refused():
    with pytest.raises(QlSyntaxError, match="clause 'arrays' appears twice"):
        parse("""create table t on select get from "http://x" with arrays 'a' with arrays 'b';""")


# ---------------------------------------------------------------- a table over a real upstream

SEARCH = """create table shop.search
  on select get from "{config.base}/search?q={^q}"
     resultset 'searchResponse'
     with arrays 'results.item', 'results.item.tag', '..warning'"""


def search_answer(*items: str) -> str:
    entries = "".join(f"<item><id>{i}</id><tag>{i}-a</tag></item>" for i in items)
    return f"<searchResponse><warning>slow</warning><results>{entries}</results></searchResponse>"


async def test_an_xml_answer_with_one_child_has_the_shape_of_one_with_two(upstream, engine_for):
    engine = engine_for({"shop/search.ql": SEARCH})
    shapes = {}
    for q, items in (("one", ("1",)), ("two", ("1", "2")), ("none", ())):
        upstream.reply("GET", "/search", text=search_answer(*items), content_type="application/xml")
        shapes[q] = (await engine.execute(f'return select * from shop.search where q = "{q}"')).value
    assert shapes["one"] == {"warning": ["slow"], "results": {"item": [{"id": 1, "tag": ["1-a"]}]}}
    assert shapes["two"]["results"]["item"] == [{"id": 1, "tag": ["1-a"]}, {"id": 2, "tag": ["2-a"]}]
    assert shapes["none"] == {"warning": ["slow"], "results": {"item": []}}


async def test_columns_of_a_declared_list_read_the_same_for_one_row_and_several(upstream, engine_for):
    engine = engine_for({"shop/search.ql": SEARCH})
    upstream.reply("GET", "/search", text=search_answer("7"), content_type="application/xml")
    one = (await engine.execute('return select results.item[0].id from shop.search where q = "x"')).value
    upstream.reply("GET", "/search", text=search_answer("7", "8"), content_type="application/xml")
    two = (await engine.execute('return select results.item[0].id from shop.search where q = "x"')).value
    assert one == two


async def test_a_table_without_the_clause_keeps_the_shapes_of_the_xml(upstream, engine_for):
    plain = SEARCH.replace("\n     with arrays 'results.item', 'results.item.tag', '..warning'", "")
    engine = engine_for({"shop/search.ql": plain})
    upstream.reply("GET", "/search", text=search_answer("1"), content_type="application/xml")
    value = (await engine.execute('return select * from shop.search where q = "x"')).value
    assert value["results"]["item"] == {"id": 1, "tag": "1-a"}  # ql.io's shapes (spec §10.7.1)


async def test_a_bad_path_in_a_table_file_is_reported_with_the_file_and_line(make_engine):
    engine = make_engine(
        {"bad.ql": "create table bad\n  on select get from \"http://127.0.0.1/x\"\n     with arrays 'a.'"}
    )
    problems = engine.table_problems
    assert len(problems) == 1
    assert "bad.ql" in str(problems[0]) and ":3" in str(problems[0]) and "'a.' is not a path" in str(problems[0])


def test_the_value_shaped_is_not_changed_what_changes_is_copied():
    untouched = {"keep": {"deep": 1}}
    value = {"item": {"id": 1}, "other": untouched, "list": [{"tag": "a"}]}
    before = repr(value)
    out = shaped(value, "item", "list.tag", "..deep")
    assert repr(value) == before
    assert out == {"item": [{"id": 1}], "other": {"keep": {"deep": [1]}}, "list": [{"tag": ["a"]}]}
    same = {"item": [1], "other": {"x": 1}}
    result = shaped(same, "item", "..nothing")
    assert result is same and result["other"] is same["other"]  # nothing to change: nothing copied
