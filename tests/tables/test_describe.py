"""Describe pages (tables/describe.py): the examples the console's "try it" starts from."""

from qlgate.tables.describe import describe_route, route_example, table_example


def test_a_tables_own_example_comment_wins(make_engine):
    engine = make_engine(
        {
            "shop.ql": '-- Search the shop.\n-- Example: select * from shop.search where q = "tent"\n'
            'create table shop.search on select get from "http://127.0.0.1:1/s?q={^q}"'
        }
    )
    assert table_example(engine.tables.get("shop.search")) == 'select * from shop.search where q = "tent"'


def test_without_one_the_required_parameters_are_written_out(make_engine):
    engine = make_engine(
        {
            "a.ql": 'create table shop.item on select get from "http://127.0.0.1:1/i/{^id}?lang={lang}&k={^key}" '
            'using defaults key = "k"',
            "b.ql": 'create table shop.ping on select get from "http://127.0.0.1:1/ping"',
            "c.ql": '-- Columns: Title, Price\ncreate table shop.add on insert post to "http://127.0.0.1:1/add"',
            "d.ql": 'create table shop.drop on delete delete "http://127.0.0.1:1/i/{^id}"',
        }
    )
    assert table_example(engine.tables.get("shop.item")) == 'select * from shop.item where id = "…"'
    assert table_example(engine.tables.get("shop.ping")) == "select * from shop.ping"
    assert table_example(engine.tables.get("shop.add")) == 'insert into shop.add (Title) values ("…")'
    assert table_example(engine.tables.get("shop.drop")) == 'delete from shop.drop where id = "…"'


def test_a_route_example_is_a_path_from_its_comment_that_it_matches(make_engine):
    engine = make_engine(
        routes={
            "item.ql": "-- One item, e.g. /items/42?lang=en. See also /elsewhere/1.\n"
            "return \"{id}\" via route '/items/{id}?lang={lang}' using method get;",
            "bare.ql": "return \"{q}\" via route '/find/{kind}?q={^q}&page={page}' using method get;",
        }
    )
    item, bare = sorted(engine.routes, key=lambda r: r.pattern)[::-1]
    assert route_example(item) == "/items/42?lang=en"
    assert route_example(bare) == "/find/{kind}?q={q}"
    assert describe_route(item, engine.routes)["example"] == "/items/42?lang=en"
    assert "One item" in describe_route(item, engine.routes)["info"]
