"""Routes (spec §13.2, §14.2): a route script's path template, query map and
defaults; matching a request to a route; the tables a route uses; and the
routes tree read from disk, problems reported as file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from qlgate.errors import QlError, QlSyntaxError
from qlgate.lang.parser import parse
from qlgate.routes import Route, compile_route, load_routes_dir, path_exists, select_route, tables_used


def route(source: str, file: str = "test.ql") -> Route:
    return compile_route(parse(source), source, file)


def write(directory: Path, name: str, source: str) -> Path:
    file = directory / name
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(source, encoding="utf-8")
    return file


ITEM = """item = select * from ebay.shopping.GetSingleItem where ItemID = "{itemId}";
return "{item}" via route '/ebay/items/{itemId}?include={include}' using method get;
"""

# ---------------------------------------------------------------- one route


def test_a_route_has_its_method_pattern_and_path_without_the_query():
    item = route(ITEM)

    assert item.method == "get"
    assert item.pattern == "/ebay/items/{itemId}?include={include}"
    assert item.path == "/ebay/items/{itemId}"


def test_the_path_template_splits_into_literal_and_variable_segments():
    assert route(ITEM).segments == (("lit", ""), ("lit", "ebay"), ("lit", "items"), ("var", "itemId"))


def test_the_query_map_names_each_variable_and_a_caret_makes_it_required():
    search = route("""return {} via route '/search?q={^keywords}&page={page}' using method get;""")

    assert search.query == {"q": ("keywords", True), "page": ("page", False)}


def test_a_query_pair_that_is_not_key_equals_variable_is_ignored():
    search = route("""return {} via route '/search?q={q}&format=json&flag' using method get;""")

    assert search.query == {"q": ("q", False)}


def test_defaults_keep_text_numbers_and_paths_as_written():
    search = route(
        """return {} via route '/s?a={a}&b={b}&c={c}' using defaults a = "ten", b = 10, c = config.site using method get;"""
    )

    assert search.defaults == {"a": "ten", "b": 10, "c": "config.site"}


def test_without_optional_params_every_query_key_without_a_default_is_required():
    search = route("""return {} via route '/s?q={q}&n={n}&p={^p}' using defaults n = 10 using method get;""")

    assert search.required_keys() == ["q", "p"]


def test_with_optional_params_only_caret_keys_are_required():
    search = route("""return {} via route '/s?q={q}&p={^p}' with optional params using method get;""")

    assert search.required_keys() == ["p"]


def test_the_leading_comment_of_the_file_documents_the_route():
    documented = route("-- Item details\n-- by item id\n" + ITEM)

    assert documented.doc == "Item details\nby item id"


def test_a_script_whose_return_has_no_via_route_is_not_a_route():
    with pytest.raises(QlError, match="must end with 'return … via route …'") as caught:
        route("""x = select * from ebay.items; return "{x}";""")

    assert caught.value.status == 400


def test_a_route_without_using_method_is_a_syntax_error_at_its_clause():
    with pytest.raises(QlSyntaxError, match="a route needs 'using method …'") as caught:
        parse("""return {} via route '/a';""")

    assert (caught.value.line, caught.value.column) == (1, 11)


# ---------------------------------------------------------------- matching a request


def test_match_binds_each_path_variable_to_its_segment():
    assert route(ITEM).match("/ebay/items/230851234561") == {"itemId": "230851234561"}


@pytest.mark.parametrize(
    "path", ["/ebay/items", "/ebay/items/", "/ebay/items/1/more", "/ebay/lots/1", "/ebay/items/1/"]
)
def test_match_refuses_other_literals_lengths_and_empty_variables(path):
    assert route(ITEM).match(path) is None


def test_select_route_matches_the_method_in_any_case_and_returns_the_bound_path():
    item = route(ITEM)
    query = {"include": "Details"}

    assert select_route([item], "GET", "/ebay/items/42", query) == (item, {"itemId": "42"})
    assert select_route([item], "POST", "/ebay/items/42", query) is None


def test_select_route_skips_a_route_missing_a_required_parameter():
    strict = route("""return {} via route '/s?q={^q}' with optional params using method get;""")
    loose = route("""return {} via route '/s?page={page}' with optional params using method get;""")

    assert select_route([strict, loose], "get", "/s", {"page": "2"}) == (loose, {})


def test_select_route_prefers_the_route_naming_most_of_the_given_parameters():
    by_q = route("""return {} via route '/s?q={q}' with optional params using method get;""")
    by_q_and_page = route("""return {} via route '/s?q={q}&page={page}' with optional params using method get;""")

    chosen, _ = select_route([by_q, by_q_and_page], "get", "/s", {"q": "x", "page": "2"})

    assert chosen is by_q_and_page


def test_path_exists_whatever_the_method():
    writes = route("""return {} via route '/watch/{itemId}' using method post;""")

    assert path_exists([writes], "/watch/1")
    assert not path_exists([writes], "/watch")


# ---------------------------------------------------------------- the tables a route uses


def test_tables_used_lists_each_source_once_in_order_and_is_kept_on_the_route():
    source = """a = select * from ebay.finding.items;
b = select * from ebay.shopping.item, ebay.finding.items as f where ItemID = "{a.id}";
return "{b}" via route '/b' using method get;"""

    assert tables_used(parse(source)) == ["ebay.finding.items", "ebay.shopping.item"]
    assert route(source).tables == ["ebay.finding.items", "ebay.shopping.item"]


def test_tables_used_looks_into_nested_selects_and_if_and_try_blocks():
    script = parse("""found = select * from t.found;
if (found) { details = select * from t.details where id in (select id from t.nested); }
else { other = select * from t.other; }
try { w = insert into t.watch (id) values ("1"); } catch (failed) { r = select * from t.retry; }
finally { delete from t.cleanup where id = "1"; }
return "{found}" via route '/f' using method get;""")

    assert tables_used(script) == ["t.cleanup", "t.details", "t.found", "t.nested", "t.other", "t.retry", "t.watch"]


def test_tables_used_leaves_out_variables_the_script_assigns_itself():
    script = parse("""if (ready) { rows = select * from t.rows; }
picked = select title from rows where price = "1";
return select * from picked via route '/p' using method get;""")

    assert tables_used(script) == ["t.rows"]


# ---------------------------------------------------------------- the routes tree


def test_load_routes_dir_compiles_every_ql_file_under_it(tmp_path: Path):
    write(tmp_path, "item.ql", ITEM)
    write(tmp_path, "watch/add.ql", """return {} via route '/watch/{id}' using method post;""")
    write(tmp_path, "README.md", "not a route")

    routes, problems = load_routes_dir(tmp_path)

    assert problems == []
    assert [(r.method, r.path) for r in routes] == [("get", "/ebay/items/{itemId}"), ("post", "/watch/{id}")]
    assert routes[1].file == str(tmp_path / "watch" / "add.ql")


def test_load_routes_dir_of_a_directory_that_does_not_exist_is_empty(tmp_path: Path):
    assert load_routes_dir(tmp_path / "absent") == ([], [])
    assert load_routes_dir(None) == ([], [])


def test_a_route_file_that_does_not_parse_is_reported_at_its_line_and_column(tmp_path: Path):
    file = write(tmp_path, "bad.ql", """x = select * from t;\nreturn "{x}" via rout '/a' using method get;\n""")

    routes, [problem] = load_routes_dir(tmp_path)

    assert routes == []
    assert (problem.file, problem.line, problem.column) == (str(file), 2, 18)
    assert str(problem).startswith(f"{file}:2:18: unexpected 'rout'")


def test_a_file_that_is_not_a_route_is_reported_without_stopping_the_load(tmp_path: Path):
    write(tmp_path, "a-script.ql", """x = select * from t;""")
    write(tmp_path, "b-route.ql", ITEM)

    routes, [problem] = load_routes_dir(tmp_path)

    assert [r.path for r in routes] == ["/ebay/items/{itemId}"]
    assert problem.message == "a route script must end with 'return … via route …'"
    assert (problem.line, problem.column) == (1, 1)


def test_a_second_route_with_the_same_method_path_and_query_keys_is_a_problem(tmp_path: Path):
    first = write(tmp_path, "a.ql", ITEM)
    write(tmp_path, "b.ql", ITEM.replace('"{item}"', "{}"))
    write(tmp_path, "c.ql", ITEM.replace("using method get", "using method put"))

    routes, [problem] = load_routes_dir(tmp_path)

    assert [(r.method, Path(r.file).name) for r in routes] == [("get", "a.ql"), ("put", "c.ql")]
    assert problem.message == f"route get /ebay/items/{{itemId}}?include={{include}} already defined in {first}"
