"""The parser turns scripts into plain dataclasses and bad text into a typed
syntax error that says where and what was expected."""

import pytest

from qlgate.errors import QlSyntaxError
from qlgate.lang import ast
from qlgate.lang.parser import parse


def only(script: str):
    (line,) = parse(script).items
    (choice,) = line.choices
    return line, choice


def test_select_with_where_limit_offset_and_tuning():
    line, select = only(
        "items = select title as t, price.value as p from shop.search "
        'where q = "boots" and max = 20 limit 10 offset 5 timeout 500 minDelay 10 MAXDELAY 90;'
    )
    assert line.target == "items"
    assert isinstance(select, ast.Select)
    assert [c.alias for c in select.columns] == ["t", "p"]
    assert str(select.columns[1].path) == "price.value"
    assert select.sources == (ast.Source("shop.search", None),)
    assert select.limit == 10 and select.offset == 5
    assert select.tuning == ast.Tuning(500, 10, 90)
    q, mx = select.where
    assert isinstance(q.operand, ast.TextOperand) and q.operand.template.raw == "boots"
    assert mx.operand == ast.NumberOperand(20)


def test_statements_need_no_semicolons():
    script = parse("a = 1 b = 2 return b")
    assert [i.target for i in script.items] == ["a", "b"]
    assert isinstance(script.ret.choices[0], ast.VarRef)


def test_keywords_are_not_reserved_inside_paths():
    _, select = only("select from.x, select from t")
    assert [str(c.path) for c in select.columns] == ["from.x", "select"]


def test_in_list_and_in_subselect():
    _, select = only('select * from d where id in ("1", 2, ids) and cat in (select c from t where k = "v")')
    in_list, in_select = select.where
    assert isinstance(in_list, ast.InListCondition) and len(in_list.items) == 3
    assert isinstance(in_select, ast.InSelectCondition)
    assert in_select.select.sources[0].name == "t"


def test_create_table_with_every_clause_in_any_order():
    _, create = only("""
        create table shop.search
          on select get from "{config.base}/s?q={^q}&n={20|ids}"
             resultset 'a.b'
             using defaults site = "US", page = 1
             with aliases limit = 'count'
             using headers 'X-App' = '{config.app}'
             using patch 'search.py'
          on insert post to "{config.base}/items"
             using bodyTemplate 'add.xml.mu' type 'application/xml' foreach 'ItemID'
          on delete delete "{config.base}/items/{^id}"
    """)
    select, insert, delete = create.mappings
    assert (select.kind, select.method, select.resultset, select.patch) == ("select", "get", "a.b", "search.py")
    assert [p.name for p in select.defaults] == ["site", "page"]
    assert insert.body == ast.BodySpec("add.xml.mu", "application/xml", "ItemID")
    assert (delete.kind, delete.method) == ("delete", "delete")


def test_a_clause_twice_in_one_mapping_is_an_error():
    with pytest.raises(QlSyntaxError, match="appears twice"):
        parse("create table t on select get from 'x' resultset 'a' resultset 'b'")


def test_comments_before_a_table_become_its_documentation():
    script = parse("-- Keyword search.\n/* Pages with limit. */\ncreate table t on select get from 'x'")
    assert script.items[0].choices[0].doc == "Keyword search.\nPages with limit."


def test_comments_are_allowed_inside_statements():
    _, select = only("select /* all */ * from -- the table\n t")
    assert select.sources[0].name == "t"


def test_json_values_keep_types_and_templates():
    _, literal = only("""x = {'a': [1, -2.5, 6e2, true, null], "b": "{y}", "c": "it's \\"q\\""}""")
    assert literal.templated
    assert literal.value["a"] == [1, -2.5, 600.0, True, None]
    assert literal.value["b"].whole_token.name == "y"
    assert literal.value["c"] == 'it\'s "q"'


def test_return_with_route():
    script = parse(
        "return {} via route '/items/{id}?q={^q}' with optional params "
        "using defaults q = 'x' using method get using headers 'X-A' = '{id}'"
    )
    route = script.ret.route
    assert (route.path, route.method, route.optional_params) == ("/items/{id}?q={^q}", "get", True)
    assert [h.name for h in route.headers] == ["X-A"]


def test_if_else_and_try_catch():
    script = parse(
        "if (a && !b || (c)) { x = 1 } else { y = 2 }\ntry { throw (oops) } catch (oops) { z = 3 } finally { w = 4 }"
    )
    block, trial = script.items
    assert isinstance(block.cond, ast.CondOr)
    assert isinstance(trial.catches[0].cond, ast.CondVar)
    assert trial.final[0].target == "w"


def test_require_and_udf_calls():
    script = parse('u = require("udfs/x.py"); v = u.add(a, 2); return select * from t where u.keep(price, 20)')
    assert isinstance(script.items[0].choices[0], ast.Require)
    call = script.items[1].choices[0]
    assert (call.module, call.function) == ("u", "add")


@pytest.mark.parametrize(
    "text, line, column, message",
    [
        ("selec * frm foo", 1, 7, "unexpected '*'"),
        ('a = "abc;\nreturn a;', 1, 5, "unterminated string"),
        ('x = select * from t where a = "{itemid"', 1, 32, "unterminated interpolation token"),
        ("a = 1\nreturn b from c", 2, 10, "unexpected 'from'"),
        ("a = b", 1, 6, "a bare word is not a value"),
        ("/* never closed", 1, 1, "unterminated block comment"),
        ("select * from t limit -1", 1, 23, "limit must be a non-negative integer"),
    ],
)
def test_syntax_errors_carry_position_and_expectation(text, line, column, message):
    with pytest.raises(QlSyntaxError) as info:
        parse(text)
    error = info.value
    assert (error.line, error.column) == (line, column)
    assert message in error.message
    assert error.pretty().splitlines()[-1].index("^") == column + 1  # two spaces of indent


def test_expected_tokens_are_listed():
    with pytest.raises(QlSyntaxError) as info:
        parse("select * from t where")
    assert "a name" in info.value.expected


def test_an_integer_longer_than_python_converts_is_a_syntax_error_at_its_position():
    # not a golden: the source line quoted in the message would be thousands of digits long
    with pytest.raises(QlSyntaxError, match="has too many digits") as info:
        parse("x = " + "9" * 5000)
    assert (info.value.line, info.value.column) == (1, 5)


@pytest.mark.parametrize(
    "text, column, found, message",
    [
        ('x = select * FROM t where a = "1";', 14, "FROM", "keywords are lower case: write 'from', not 'FROM'"),
        ("Return 1;", 1, "Return", "write 'return', not 'Return'"),
        ('x = select * from t where not a = "1";', 27, "not", "there is no 'not' in a where clause"),
        ("x = select * from t where a = 1 group by b;", 33, "group", "there is no 'group by'"),
        ("x = select * from t where a != 1;", 29, "!=", "a where condition is 'name = value' or 'name in (…)'"),
        ("if (a or b) { c = 1; }", 7, "or", "in an if or catch condition write '||'"),
        ('x = "{a}" * 2;', 11, "*", "there is no arithmetic in scripts"),
    ],
)
def test_sql_habits_are_named_where_they_stand(text, column, found, message):
    with pytest.raises(QlSyntaxError) as info:
        parse(text)
    assert message in info.value.message
    assert (info.value.line, info.value.column, info.value.found) == (1, column, found)


@pytest.mark.parametrize("text", ["selec * frm foo", "x = select * from t where", 'x = "a', "a = b * 2;"])
def test_what_is_no_sql_habit_keeps_its_own_message(text):
    with pytest.raises(QlSyntaxError) as info:
        parse(text)
    assert "there is no" not in info.value.message and "lower case" not in info.value.message
