"""What Tab offers — tables (by any dotted suffix), the columns of the table a
statement names, keywords, variables, dot-commands — and the colours of the
prompt, read from the grammar's own tokens."""

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from qlgate.shell.completion import QlCompleter
from qlgate.shell.lexer import by_line, keywords, tokens


def offered(completer: QlCompleter, text: str) -> list[tuple[str, int]]:
    return [(c.text, c.start_position) for c in completer.get_completions(Document(text), CompleteEvent())]


async def test_tables_columns_keywords_and_variables(rig):
    completer = QlCompleter(rig.session)
    assert offered(completer, "select * from shop.se") == [("shop.search", -7)]
    assert offered(completer, "select * from sea") == [("search", -3)]  # a suffix resolves too
    assert ("shop.search", 0) in offered(completer, "select * from ")
    assert ("given", 0) in offered(completer, "select * from ")  # from reads variables too
    # the columns: URI tokens, header tokens, defaults and the documented Columns: line
    assert offered(completer, "select * from shop.search where s") == [
        ("site", -1),
        ("sort", -1),
        ("select", -1),
        ("show", -1),
    ]
    assert ("q", 0) not in offered(completer, "select * from shop.search where ")  # nothing before a word is typed
    assert offered(completer, "sel") == [("select", -3)]
    assert offered(completer, 'return "{gi') == [("given", -2)]
    assert offered(completer, ".desc") == [(".describe", -5)]
    assert offered(completer, ".describe shop") == [("shop.search", -4)]
    assert offered(completer, ".output j") == [("json", -1)]
    await rig.shell.entry(f"create table mine.things on select get from '{'http://127.0.0.1:1/x'}';")
    assert offered(completer, "select * from mine.") == [("mine.things", -5)]  # a table made in the session


def test_the_prompt_is_coloured_by_the_language_tokens():
    assert {"select", "from", "where", "return", "create", "table", "limit", "timeout"} <= keywords()
    lines = by_line(tokens('x = select * from t\n  where q = "a {^b} c" -- note\n  limit 10 SELECT'))
    assert len(lines) == 3
    styled = {(style, text) for line in lines for style, text in line}
    assert ("class:ql.keyword", "select") in styled and ("class:ql.keyword", "where") in styled
    assert ("class:ql.string", '"a ') in styled and ("class:ql.token", "{^b}") in styled
    assert ("class:ql.comment", "-- note") in styled and ("class:ql.number", "10") in styled
    assert ("", "SELECT") in styled  # keywords are lower case only
    assert by_line(tokens(".tables shop")) == [[("class:ql.meta", ".tables shop")]]
    comment = by_line(tokens("/* a\nb */ x"))
    assert comment[1][0] == ("class:ql.comment", "b */")  # a comment over two lines is one colour


async def test_dot_commands(rig):
    await rig.shell.entry(".tables")
    assert rig.take()[0] == "shop.search  (select)\n(1 table)\n"
    await rig.shell.entry(".describe search")
    out, _ = rig.take()
    assert out.startswith("shop.search   (") and "on select: GET " in out and "required: q" in out
    assert "columns: q, n, site, sort" in out
    await rig.shell.entry(".timing on")
    await rig.shell.entry('return select * from shop.search where q = "x";')
    out, err = rig.take()
    assert "timing is on" in out and "1 upstream call(s)" in err and "GET 200" in " ".join(err.split())
    await rig.shell.entry(".help")
    assert ".describe TABLE" in rig.take()[0]
    await rig.shell.entry(".describe nosuch")
    assert "No such table nosuch" in rig.take()[1]
    assert await rig.shell.entry(".quit") == "quit"
