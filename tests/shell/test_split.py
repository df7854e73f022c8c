"""Where a statement typed into the shell ends: a ';' outside quoted text,
comments and brackets."""

import pytest

from qlgate.shell.split import has_code, is_complete, split_statements


@pytest.mark.parametrize(
    "text, statements, rest",
    [
        ("a = 1; b = 2;", ["a = 1", "b = 2"], ""),
        ('x = "a;b";', ['x = "a;b"'], ""),
        ("x = 'it;s' ; y", ["x = 'it;s'"], " y"),
        ('x = "say \\";\\"";', ['x = "say \\";\\""'], ""),
        ("if (x) { a = 1; b = 2 };", ["if (x) { a = 1; b = 2 }"], ""),
        ('x = {"a": [1, 2]; ', [], 'x = {"a": [1, 2]; '),
        ("-- not here;\na = 1 /* nor ; here */;", ["-- not here;\na = 1 /* nor ; here */"], ""),
        (";; -- only a comment;", [], " -- only a comment;"),
        ("select *\n  from t\n  where q = 'multi\nline;';\n", ["select *\n  from t\n  where q = 'multi\nline;'"], "\n"),
    ],
)
def test_statements_end_at_a_semicolon_outside_text_comments_and_brackets(text, statements, rest):
    split = split_statements(text)
    assert (split.statements, split.rest) == (statements, rest)


def test_completeness_and_the_line_each_statement_starts_on():
    assert is_complete("a = 1;\n")
    assert not is_complete("a = 1")
    assert not is_complete('a = "1;')  # the quote is still open
    assert not is_complete("a = 1; b =")
    assert not is_complete("-- a comment;")
    assert not has_code(" ; -- x\n/* y */ ")
    assert split_statements("a = 1;\n\n  b = 2;\nc =\n 3;").lines == [1, 3, 4]
