"""Tab completion for the shell: table names, their columns, keywords,
variables and dot-commands.

- After ``from``, ``into``, ``update``, ``describe``/``desc`` and ``.describe``:
  table names (and, after ``from``, the session's variables, which ``from`` reads
  too). A name completes from its start or from any dotted suffix it resolves by
  (``browse.se`` → ``browse.search``, the full name shown beside it).
- Elsewhere in a statement: the columns of the tables it names — a table's
  declared parameters: its URI and header tokens, its defaults, and the
  ``Columns:`` line of its documentation (eBay's tables list their body fields
  there) — then keywords and variables.
- Inside ``{`` of a token: variables.

Table names come from the engine's registry (``names()`` compiles a lazily
opened tree once, on the first completion that needs them); a table's columns
are read when a statement names it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from ..commands.output import FORMATS
from ..errors import QlError
from .lexer import keywords

if TYPE_CHECKING:
    from ..tables.model import Table
    from .session import Session

META_COMMANDS = (".tables", ".describe", ".timing", ".vars", ".output", ".help", ".quit")
META_ARGUMENTS = {".timing": ("on", "off"), ".output": (*FORMATS, "auto")}  # run's formats, and the reader's choice
_TABLE_AFTER = frozenset({"from", "into", "update", "describe", "desc", ".describe"})
_WORD_BEFORE = re.compile(r"([A-Za-z$:.][A-Za-z0-9_$:.]*)?$")
_NAMED_TABLE = re.compile(r"\b(?:from|into|update|join)\s+([A-Za-z$:][A-Za-z0-9_$:.]*)")
_PATH = re.compile(r"[A-Za-z$:][A-Za-z0-9_$:.]*")
_COLUMNS_DOC = re.compile(r"^Columns:\s*((?:.+\n?)+?)(?:\n\s*\n|\Z|\n(?=[A-Z][\w ]*:))", re.M)


def table_columns(table: Table) -> list[str]:
    """What a statement on ``table`` can name in its where clause or column list:
    its URI and header tokens, its defaults and its documented ``Columns:``."""
    names: list[str] = []
    for mapping in table.mappings.values():
        for token in mapping.uri.tokens:
            names.append(token.body.raw)
        for _, value in mapping.headers:
            names += [token.body.raw for token in value.tokens]
        names += list(mapping.defaults)
    documented = _COLUMNS_DOC.search(table.doc or "")
    if documented:
        for entry in documented.group(1).replace("\n", " ").split(","):
            names.append(entry.strip().split(" ")[0].lstrip("^"))
    return [n for n in dict.fromkeys(names) if _PATH.fullmatch(n) and not n.startswith("config.") and n != "…"]


class QlCompleter(Completer):
    def __init__(self, session: Session):
        self.session = session
        self._names: list[str] | None = None
        self._defined = 0

    def table_names(self) -> list[str]:
        """Every table's name (read again when the session defines one)."""
        if self._names is None or self._defined != len(self.session.defined):
            self._names = self.session.engine.tables.names()
            self._defined = len(self.session.defined)
        return self._names

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        before = document.text_before_cursor
        found = _WORD_BEFORE.search(before)
        word = found.group(1) or "" if found else ""
        head = before[: len(before) - len(word)]
        stripped = document.text.lstrip()
        if stripped.startswith("."):
            yield from self._meta(head.strip(), word)
            return
        if _inside_token(head):
            yield from _matching(word, sorted(self.session.variables), "variable")
            return
        previous = head.split()[-1] if head.split() else ""
        if previous in _TABLE_AFTER:
            yield from self._tables(word)
            if previous == "from":
                yield from _matching(word, sorted(self.session.variables), "variable")
            return
        if not word:
            return
        statement = _current_statement(document.text, document.cursor_position)
        yield from _matching(word, self._columns_of(statement), "column")
        yield from _matching(word, sorted(keywords()), "keyword")
        yield from _matching(word, sorted(self.session.variables), "variable")

    def _meta(self, head: str, word: str) -> Iterator[Completion]:
        if not head:
            yield from _matching(word, META_COMMANDS, "command")
        elif head == ".describe":
            yield from self._tables(word)
        elif head in META_ARGUMENTS:
            yield from _matching(word, META_ARGUMENTS[head], head)

    def _tables(self, word: str) -> Iterator[Completion]:
        """Names starting with ``word``, or with a dotted suffix that does."""
        for name in self.table_names():
            for suffix in _suffixes(name):
                if suffix.startswith(word):
                    yield Completion(suffix, -len(word), display_meta=name if suffix != name else "table")
                    break

    def _columns_of(self, statement: str) -> list[str]:
        columns: list[str] = []
        for name in _NAMED_TABLE.findall(statement):
            if name in self.session.variables:
                continue
            try:
                table = self.session.engine.tables.find(name)
            except QlError:
                continue  # ambiguous
            if table is not None:
                columns += table_columns(table)
        return list(dict.fromkeys(columns))


def _matching(word: str, candidates: Iterable[str], meta: str) -> Iterator[Completion]:
    for candidate in candidates:
        if candidate.startswith(word) and candidate != word:
            yield Completion(candidate, -len(word), display_meta=meta)


def _suffixes(name: str) -> Iterator[str]:
    """``a.b.c``, ``b.c``, ``c``: the longest first."""
    parts = name.split(".")
    for i in range(len(parts)):
        yield ".".join(parts[i:])


def _inside_token(head: str) -> bool:
    """Is the cursor right after the ``{`` (or ``{^``) of a token in quoted text?"""
    line = head.rsplit("\n", 1)[-1]
    opened = line.rfind("{")
    if opened < 0 or line[opened + 1 :].strip("^"):
        return False
    return line.count('"', 0, opened) % 2 == 1 or line.count("'", 0, opened) % 2 == 1


def _current_statement(text: str, cursor: int) -> str:
    """The statement the cursor is in: from the last ``;`` before it to the next."""
    start = text.rfind(";", 0, cursor) + 1
    end = text.find(";", cursor)
    return text[start : end if end >= 0 else len(text)]
