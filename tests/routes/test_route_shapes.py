"""A route's ``with arrays`` clause: compiled with the route, its paths checked,
and the route's answer brought to that shape (``Route.shape``)."""

from __future__ import annotations

import pytest

from qlgate.errors import QlSyntaxError
from qlgate.lang.parser import parse
from qlgate.routes import compile_route, load_routes_dir

SEARCH = """found = select * from shop.search where q = "{q}";
return {"items": "{found.results.item}", "total": "{found.total}"}
  via route '/shop/search?q={^q}' with optional params with arrays 'items', 'items.tags' using method get;
"""


def test_a_route_compiles_the_paths_it_declares():
    route = compile_route(parse(SEARCH), SEARCH, "search.ql")
    assert route.arrays is not None and route.arrays.paths == ("items", "items.tags")
    assert route.optional_params and route.query == {"q": ("q", True)}


def test_the_answer_of_a_route_has_one_shape_for_one_item_several_and_none():
    route = compile_route(parse(SEARCH), SEARCH, "search.ql")
    one = route.shape({"items": {"id": 1, "tags": "a"}, "total": 1})
    two = route.shape({"items": [{"id": 1, "tags": "a"}, {"id": 2, "tags": ["b", "c"]}], "total": 2})
    none = route.shape({"total": 0})
    assert one == {"items": [{"id": 1, "tags": ["a"]}], "total": 1}
    assert two["items"] == [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": ["b", "c"]}]
    assert none == {"total": 0, "items": []}


def test_a_route_without_the_clause_answers_as_it_is():
    source = SEARCH.replace(" with arrays 'items', 'items.tags'", "")
    route = compile_route(parse(source), source, "search.ql")
    value = {"items": {"id": 1}}
    assert route.arrays is None and route.shape(value) is value


def test_a_bad_path_in_a_route_file_is_reported_with_its_position(tmp_path):
    (tmp_path / "bad.ql").write_text(SEARCH.replace("'items.tags'", "'items..tags'"), encoding="utf-8")
    routes, problems = load_routes_dir(tmp_path)
    assert routes == [] and len(problems) == 1
    assert "bad.ql" in str(problems[0]) and "'items..tags' is not a path" in str(problems[0])
    with pytest.raises(QlSyntaxError):
        parse(SEARCH.replace("'items.tags'", "'.items'"))


async def test_the_engine_answers_a_route_in_the_shape_it_declares():
    from qlgate.engine.engine import Engine

    script = (
        'one = {"id": 1, "tags": "a"};\n'
        'return {"items": "{one}", "total": 1}\n'
        "  via route '/shop/one' with arrays 'items', 'items.tags' using method get;\n"
    )
    async with Engine(config={}) as engine:
        result = await engine.execute(script)
        assert result.value == {"items": [{"id": 1, "tags": ["a"]}], "total": 1}
        plain = await engine.execute(script.replace(" with arrays 'items', 'items.tags'", ""))
        assert plain.value == {"items": {"id": 1, "tags": "a"}, "total": 1}
