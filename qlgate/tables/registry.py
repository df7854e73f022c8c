"""Loading the tables directory and resolving table names.

Names resolve fully qualified, or by a unique dotted suffix
(``trading.AddToWatchList`` → ``ebay.trading.AddToWatchList``); an ambiguous
suffix is an error listing the candidates.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AmbiguousTable, QlError, QlSyntaxError, TableNotFound
from ..lang import ast
from ..lang.parser import parse
from .files import CodeDirs
from .model import Table, compile_table

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


class TableRegistry:
    """Tables by name with suffix resolution; overlays shadow it per script run."""

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
            index: dict[str, list[str]] = {}
            for name in self._tables:
                parts = name.split(".")
                for i in range(1, len(parts)):
                    index.setdefault(".".join(parts[i:]), []).append(name)
            self._suffixes = index
        return self._suffixes

    def find(self, name: str) -> Table | None:
        """Exact name, else a unique suffix; None when unknown; raises when ambiguous."""
        table = self._tables.get(name)
        if table is not None:
            return table
        if self.parent is not None:
            table = self.parent._tables.get(name)
            if table is not None:
                return table
        candidates = list(self._suffix_index().get(name, ()))
        if self.parent is not None:
            candidates += [c for c in self.parent._suffix_index().get(name, ()) if c not in candidates]
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
            raise TableNotFound(f"No such table {name}")
        return table


def load_tables_dir(
    directory: str | Path | None, config: Any, *, patch_paths: list[Path] | None = None
) -> tuple[TableRegistry, list[LoadProblem]]:
    """Compile every ``*.ql`` file under ``directory``; bad files are reported, not fatal.
    The files a table names resolve beside it, then in ``patch_paths``, and stay inside
    the tables tree or those paths."""
    registry = TableRegistry()
    problems: list[LoadProblem] = []
    if directory is None:
        return registry, problems
    root = Path(directory)
    if not root.is_dir():
        return registry, problems
    origin_of: dict[str, str] = {}
    shared = CodeDirs.of(patch_paths or (), roots=[root])
    for file in sorted(root.rglob("*.ql")):
        rel = str(file)
        try:
            script = parse(file.read_text(encoding="utf-8"), origin=rel)
        except QlSyntaxError as e:
            problems.append(LoadProblem(rel, e.line or 1, e.column or 1, e.message))
            continue
        except (OSError, UnicodeDecodeError) as e:
            problems.append(LoadProblem(rel, 1, 1, f"cannot read: {e}"))
            continue
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
                try:
                    dirs = CodeDirs((file.parent, *shared.search), shared.roots)
                    table = compile_table(create, config, dirs, file=rel)
                except QlError as e:
                    problems.append(
                        LoadProblem(rel, e.line or create.pos.line, e.column or create.pos.column, e.message)
                    )
                    continue
                if create.name in origin_of:
                    log.warning("table %s in %s replaces the one in %s", create.name, rel, origin_of[create.name])
                origin_of[create.name] = rel
                registry.add(table)
    return registry, problems
