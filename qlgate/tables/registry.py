"""Loading the tables directory and resolving table names.

Names resolve fully qualified, or by a unique dotted suffix
(``trading.AddToWatchList`` → ``ebay.trading.AddToWatchList``); an ambiguous
suffix is an error listing the candidates; an unknown name is an error that
suggests the near names (``weather.forcast``: did you mean weather.forecast?).
"""

from __future__ import annotations

import difflib
import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AmbiguousTable, QlError, QlSyntaxError, TableNotFound
from ..lang import ast
from ..lang.parser import parse
from .files import CodeDirs
from .model import Table, compile_table
from .progress import LoadProgress

log = logging.getLogger("qlgate.tables")


@dataclass(frozen=True)
class LoadProblem:
    """A file that failed to compile: reported as ``file:line:col: message``."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


def suffix_map(names: Iterable[str]) -> dict[str, list[str]]:
    """Each dotted suffix of the names (``browse.search``, ``search`` of
    ``ebay.buy.browse.search``) → the names that end with it: how a table is found
    by the end of its name."""
    suffixes: dict[str, list[str]] = {}
    for name in names:
        parts = name.split(".")
        for i in range(1, len(parts)):
            suffixes.setdefault(".".join(parts[i:]), []).append(name)
    return suffixes


class TableRegistry:
    """Tables by name with suffix resolution; overlays shadow it per script run."""

    lazy = False  # compiles its tables as they are asked for (tables/index.py)

    def __init__(self, tables: Iterable[Table] = (), parent: TableRegistry | None = None):
        self._tables: dict[str, Table] = {}
        self._suffixes: dict[str, list[str]] | None = None
        self.parent = parent
        for table in tables:
            self.add(table)

    def add(self, table: Table) -> None:
        self._tables[table.name] = table
        self._suffixes = None

    def __contains__(self, name: str) -> bool:
        return self.find(name) is not None

    def __len__(self) -> int:
        return len(self.names())

    def names(self) -> list[str]:
        names = set(self._tables)
        if self.parent:
            names |= set(self.parent.names())
        return sorted(names, key=str.lower)

    def tables(self) -> list[Table]:
        return [self.get(n) for n in self.names()]

    def _suffix_index(self) -> dict[str, list[str]]:
        if self._suffixes is None:
            self._suffixes = suffix_map(self._tables)
        return self._suffixes

    # what a registry holds itself (not its parent's): a lazily loaded one (tables/index.py)
    # loads the tables these name on first use
    def _own(self, name: str) -> Table | None:
        return self._tables.get(name)

    def _own_by_suffix(self, name: str) -> list[str]:
        return list(self._suffix_index().get(name, ()))

    def find(self, name: str) -> Table | None:
        """Exact name, else a unique suffix; None when unknown; raises when ambiguous."""
        table = self._own(name)
        if table is not None:
            return table
        if self.parent is not None:
            table = self.parent._own(name)
            if table is not None:
                return table
        candidates = self._own_by_suffix(name)
        if self.parent is not None:
            candidates += [c for c in self.parent._own_by_suffix(name) if c not in candidates]
        if len(candidates) == 1:
            return self.get(candidates[0])
        if len(candidates) > 1:
            raise AmbiguousTable(
                f"table name '{name}' is ambiguous: " + ", ".join(sorted(candidates)), candidates=sorted(candidates)
            )
        return None

    def get(self, name: str) -> Table:
        table = self.find(name)
        if table is None:
            raise not_found(name, self)
        return table

    def known_names(self) -> set[str]:
        """Every table name this registry can resolve, compiling none (a lazily loaded
        registry knows the names its index lists): what suggestions are made from."""
        names = set(self._tables)
        # a lazily loaded registry (tables/index.py): the names its index lists, but not
        # those already compiled in vain, which a full load would not know either
        settled = getattr(self, "_settled", ())
        names |= {n for n in getattr(self, "_defined", ()) if n not in settled}
        if self.parent is not None:
            names |= self.parent.known_names()
        return names


def near_names(name: str, names: Iterable[str]) -> list[str]:
    """The names (or unique name endings, as a script may write them) closest to
    ``name``, best first."""
    names = list(names)
    # as written → [(as shown, the table's name)]; an ending several tables share (``serch``
    # for ``search``) suggests each of their full names, as the ending alone would not resolve
    pool = {n.lower(): [(n, n)] for n in names}
    for suffix, owners in suffix_map(names).items():
        pool.setdefault(suffix.lower(), [(suffix, owners[0])] if len(owners) == 1 else [(o, o) for o in owners])
    shown: dict[str, str] = {}  # one suggestion per table, the closest way of writing it
    for found in difflib.get_close_matches(name.lower(), list(pool), n=10, cutoff=0.75):
        for text, owner in pool[found]:
            shown.setdefault(owner, text)
    return list(shown.values())[:3]


def not_found(name: str, registry: TableRegistry) -> TableNotFound:
    """``No such table NAME``, with the near names when there are some."""
    known = registry.known_names()
    near = [n for n in near_names(name, known - {name}) if n != name]
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    if not known:  # most likely run from outside the deployment: say where tables come from
        hint = " (no tables are loaded: run from the directory holding tables/, or give --tables DIR)"
    return TableNotFound(f"No such table {name}{hint}", suggestions=near or None)


def load_tables_dir(
    directory: str | Path | None,
    config: Any,
    *,
    patch_paths: list[Path] | None = None,
    record: Callable[[Path, FileOutcome], None] | None = None,
) -> tuple[TableRegistry, list[LoadProblem]]:
    """Compile every ``*.ql`` file under ``directory``; bad files are reported, not fatal.
    The files a table names resolve beside it, then in ``patch_paths``, and stay inside
    the tables tree or those paths. ``record(file, outcome)`` hears of each file (the
    table index, ``index.py``); a long load says how far it is (``progress.py``)."""
    registry = TableRegistry()
    problems: list[LoadProblem] = []
    if directory is None:
        return registry, problems
    root = Path(directory)
    if not root.is_dir():
        return registry, problems
    origin_of: dict[str, str] = {}
    shared = CodeDirs.of(patch_paths or (), roots=[root])
    files = sorted(root.rglob("*.ql"))
    progress = LoadProgress(root, len(files), indexing=record is not None)
    for done, file in enumerate(files, 1):
        outcome = compile_file(file, config, shared)
        progress(done)
        if record is not None:
            record(file, outcome)
        problems += outcome.problems
        for create, table in outcome.tables:
            if create in origin_of:  # two files, one name: whichever sorts last would win unseen
                line = table.line or 1
                problems.append(
                    LoadProblem(str(file), line, 1, f"table {create} is defined again (first in {origin_of[create]})")
                )
                continue
            origin_of[create] = str(file)
            registry.add(table)
    progress.finished()
    return registry, problems


@dataclass
class FileOutcome:
    """One table file read and compiled: the names of the tables it creates, in order
    (``None`` when it could not be read or parsed), the tables that compiled, and its
    problems."""

    creates: list[str] | None
    tables: list[tuple[str, Table]]
    problems: list[LoadProblem]
    stat: os.stat_result | None = None  # taken before it was read
    content: bytes = b""


def compile_file(file: Path, config: Any, shared: CodeDirs) -> FileOutcome:
    """Parse ``file`` and compile its ``create table`` statements. Its text is read as
    ``Path.read_text`` reads it (UTF-8, universal newlines)."""
    rel = str(file)
    stat: os.stat_result | None = None
    try:
        stat = os.stat(file)
        content = file.read_bytes()
        text = content.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except (OSError, UnicodeDecodeError) as e:
        return FileOutcome(None, [], [LoadProblem(rel, 1, 1, f"cannot read: {e}")], stat)
    try:
        script = parse(text, origin=rel)
    except QlSyntaxError as e:
        return FileOutcome(None, [], [LoadProblem(rel, e.line or 1, e.column or 1, e.message)], stat, content)
    outcome = FileOutcome([], [], [], stat, content)
    assert outcome.creates is not None
    for item in script.items:
        creates = [c for c in getattr(item, "choices", ()) if isinstance(c, ast.CreateTable)]
        if not creates:
            log.warning(
                "%s:%s: statements other than create table are ignored in table files",
                rel,
                getattr(getattr(item, "pos", None), "line", 1),
            )
            continue
        for create in creates:
            outcome.creates.append(create.name)
            try:
                dirs = CodeDirs((file.parent, *shared.search), shared.roots)
                table = compile_table(create, config, dirs, file=rel)
            except QlError as e:
                outcome.problems.append(
                    LoadProblem(rel, e.line or create.pos.line, e.column or create.pos.column, e.message)
                )
                continue
            outcome.tables.append((create.name, table))
    return outcome
