"""The table index: which file creates which table, kept on disk so that
``qlgate run`` compiles only the tables its script names instead of the whole
tables tree (500+ files, half a second).

The index lives in ``$XDG_CACHE_HOME/qlgate/tables/`` (``~/.cache`` without it),
one file per tables directory (keyed by the directory as given and as resolved),
and is written by a full load. It records, for every ``*.ql`` file in load order,
the names of the tables it creates (or its parse problem), and what the tree
looked like: each directory's and each file's mtime, ctime, inode (and a file's
size and content hash). It is used only when all of that still holds — a file
changed, added, removed or renamed changes a file's or a directory's stat — and
when the parser that wrote it is the one running (qlgate's version and its
``lang`` sources). Entries changed within two seconds of the scan (closer than a
file system's timestamps can tell apart) are checked by content: a directory's
listing, a file's hash. A file compiled through the index is checked by its hash
and its table names again when read; any doubt — a stale, unreadable or corrupt
index, a file that changed after the check — falls back to a full load, which
writes a fresh index. ``QLGATE_TABLE_INDEX=off`` turns the index off.

Loading through the index keeps the full load's answers: a name resolves to the
table the last file creating it (in load order) compiled, suffixes resolve among
the tables that compiled, and a table's load problems are reported when its file
is compiled (files that do not parse are known from the index at once).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG
from typing import Any

from .._version import __version__
from .files import CodeDirs
from .model import Table
from .registry import FileOutcome, LoadProblem, TableRegistry, compile_file, load_tables_dir, suffix_map

log = logging.getLogger("qlgate.tables")

FORMAT = 1
RACY_NS = 2_000_000_000  # entries this close to the scan are checked by content
OFF_VALUES = ("0", "off", "no", "false")


def enabled() -> bool:
    return os.environ.get("QLGATE_TABLE_INDEX", "").strip().lower() not in OFF_VALUES


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "qlgate" / "tables"


def index_path(root: Path) -> Path:
    key = hashlib.blake2b(f"{root}\0{root.resolve()}".encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    return cache_dir() / f"{key}.json"


def _digest(content: bytes) -> str:
    return hashlib.blake2b(content, digest_size=16).hexdigest()


def fingerprint() -> str:
    """What the recorded names depend on besides the files: the parser (qlgate's
    version, the ``lang`` sources) and this loader."""
    here = Path(__file__).resolve().parent
    parts = [f"{FORMAT}", __version__]
    sources = sorted((here.parent / "lang").rglob("*.py")) + sorted((here.parent / "lang").glob("*.lark"))
    for source in [*sources, here / "registry.py", here / "index.py"]:
        try:
            st = os.stat(source)
        except OSError:
            parts.append(f"{source}:-")
            continue
        parts.append(f"{source}:{st.st_mtime_ns}:{st.st_size}")
    return _digest("\n".join(parts).encode("utf-8", "surrogatepass"))


def _directories(root: Path) -> list[Path] | None:
    """Every directory ``root.rglob`` walks (symbolic links to directories are not
    followed), or None when one cannot be listed."""
    found = [root]
    pending = [root]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as entries:
                children = [e for e in entries if e.is_dir() and not e.is_symlink()]
        except OSError:
            return None
        for child in children:
            path = directory / child.name
            found.append(path)
            pending.append(path)
    return found


@dataclass(frozen=True)
class FileEntry:
    path: str  # relative to the tables directory, as ``/``-separated parts
    creates: tuple[str, ...] | None  # None: it did not read or parse
    problem: LoadProblem | None


@dataclass
class TableIndex:
    root: Path
    files: list[FileEntry]
    digests: dict[str, str]  # path → content hash


# ---------------------------------------------------------------- writing


class IndexWriter:
    """Collects what a full load read, then writes the index (``record`` is
    ``load_tables_dir``'s hook)."""

    def __init__(self, root: Path):
        self.root = root
        self.scanned_ns = time.time_ns()
        self.directories = _directories(root)
        self.files: list[list[Any]] = []
        self.usable = self.directories is not None

    def record(self, file: Path, outcome: FileOutcome) -> None:
        stat, content = outcome.stat, outcome.content
        if stat is None or not S_ISREG(stat.st_mode):
            self.usable = False  # a broken link, a directory named *.ql: always a full load
            return
        problem = None
        if outcome.creates is None:
            problem = outcome.problems[0] if outcome.problems else LoadProblem(str(file), 1, 1, "cannot read")
        self.files.append(
            [
                file.relative_to(self.root).as_posix(),
                stat.st_mtime_ns,
                stat.st_ctime_ns,
                stat.st_size,
                stat.st_ino,
                _digest(content),
                outcome.creates,
                None if problem is None else [problem.line, problem.column, problem.message],
            ]
        )

    def write(self) -> None:
        if not self.usable or self.directories is None:
            return
        directories = []
        for directory in self.directories:
            try:
                st = os.stat(directory)
                racy = max(st.st_mtime_ns, st.st_ctime_ns) >= self.scanned_ns - RACY_NS
                listing = sorted(os.listdir(directory)) if racy else None
            except OSError:
                return
            rel = directory.relative_to(self.root).as_posix()
            directories.append([rel, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, listing])
        data = {
            "format": FORMAT,
            "fingerprint": fingerprint(),
            "root": str(self.root),
            "resolved": str(self.root.resolve()),
            "scanned_ns": self.scanned_ns,
            "directories": directories,
            "files": self.files,
        }
        target = index_path(self.root)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".index-", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, separators=(",", ":"))
                os.replace(tmp, target)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as e:
            log.debug("table index not written to %s: %s", target, e)


# ---------------------------------------------------------------- reading


def read_index(root: Path) -> TableIndex | None:
    """The index of ``root`` if there is one and the tree is still as it records; else None."""
    try:
        with open(index_path(root), encoding="utf-8") as f:
            data = json.load(f)
        return _checked(root, data)
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None


def _checked(root: Path, data: dict[str, Any]) -> TableIndex | None:
    if data["format"] != FORMAT or data["root"] != str(root) or data["resolved"] != str(root.resolve()):
        return None
    if data["fingerprint"] != fingerprint():
        return None
    scanned = int(data["scanned_ns"])
    # paths joined as text: a pathlib join per file was some 10 ms of every qlgate run
    # from a tree of 500 tables (issue 31); the index writes them with '/' (as_posix)
    base = str(root)
    for rel, mtime, ctime, ino, listing in data["directories"]:
        path = os.path.join(base, rel)
        st = os.stat(path)
        if (st.st_mtime_ns, st.st_ctime_ns, st.st_ino) != (mtime, ctime, ino):
            return None
        if max(mtime, ctime) >= scanned - RACY_NS and (listing is None or sorted(os.listdir(path)) != listing):
            return None
    files: list[FileEntry] = []
    digests: dict[str, str] = {}
    for rel, mtime, ctime, size, ino, digest, creates, problem in data["files"]:
        path = os.path.join(base, rel)
        st = os.stat(path)
        if (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino) != (mtime, ctime, size, ino):
            return None
        if max(mtime, ctime) >= scanned - RACY_NS and _digest(Path(path).read_bytes()) != digest:
            return None
        if not isinstance(rel, str) or not isinstance(digest, str):
            return None
        if creates is not None and not (isinstance(creates, list) and all(isinstance(c, str) for c in creates)):
            return None
        found = None
        if problem is not None:
            line, column, message = problem
            found = LoadProblem(str(path), int(line), int(column), str(message))
        elif creates is None:
            return None
        files.append(FileEntry(rel, None if creates is None else tuple(creates), found))
        digests[rel] = digest
    # the order of (root / p).parts: every path shares root's parts, and rel is as_posix
    if [f.path for f in files] != sorted({f.path for f in files}, key=lambda p: p.split("/")):
        return None  # not in load order, or a file twice
    return TableIndex(root, files, digests)


# ---------------------------------------------------------------- loading through it


class StaleIndex(Exception):
    """A file no longer says what the index recorded."""


class IndexedRegistry(TableRegistry):
    """The tables of a directory, compiled on first use through its index. Every
    name the index knows is resolvable; a table's file is compiled when the table
    (or a suffix that could be it) is asked for; ``names()`` and ``tables()`` compile
    them all."""

    lazy = True

    def __init__(self, index: TableIndex, config: Any, patch_paths: list[Path] | None):
        super().__init__()
        self._index = index
        self._config = config
        self._patch_paths = patch_paths
        self._shared = CodeDirs.of(patch_paths or (), roots=[index.root])
        self._defined: dict[str, list[int]] = {}  # name → the files creating it, in load order
        for number, entry in enumerate(index.files):
            for name in entry.creates or ():
                files = self._defined.setdefault(name, [])
                if not files or files[-1] != number:
                    files.append(number)
        self._compiled: dict[int, FileOutcome] = {}
        self._settled: set[str] = set()  # names whose table (or its absence) is known
        self._all_loaded = False
        # the problems known so far (the engine's ``table_problems``, this very list)
        self.problems: list[LoadProblem] = [f.problem for f in index.files if f.problem is not None]
        self._known_suffixes: dict[str, list[str]] | None = None

    # the names the index knows; which of them compile is learnt on use
    def _index_suffixes(self) -> dict[str, list[str]]:
        if self._known_suffixes is None:
            self._known_suffixes = suffix_map(self._defined)
        return self._known_suffixes

    def _own(self, name: str) -> Table | None:
        table = self._tables.get(name)
        if table is not None or name in self._settled or self._all_loaded:
            return table
        self._settle(name)
        return self._tables.get(name)

    def _own_by_suffix(self, name: str) -> list[str]:
        if not self._all_loaded:
            found = [c for c in self._index_suffixes().get(name, ()) if self._own(c) is not None]
            if not self._all_loaded:  # (a stale index turns into a full load on the way)
                return found
        return super()._own_by_suffix(name)

    def names(self) -> list[str]:
        self.load_all()
        return super().names()

    def add(self, table: Table) -> None:
        super().add(table)
        if hasattr(self, "_settled"):
            self._settled.add(table.name)

    def _settle(self, name: str) -> None:
        try:
            outcomes = [self._compile(number) for number in self._defined.get(name, ())]
        except StaleIndex as e:
            log.info("table index of %s is stale (%s): loading every table", self._index.root, e)
            self._load_everything()
            return
        table, origin = None, ""
        for number, outcome in zip(self._defined.get(name, ()), outcomes, strict=True):
            file = str(self._index.root / self._index.files[number].path)
            for created, compiled in outcome.tables:
                if created == name:
                    if table is not None:  # as a full load says it (registry.load_tables_dir): the first stays
                        line = compiled.line or 1
                        problem = LoadProblem(file, line, 1, f"table {name} is defined again (first in {origin})")
                        if str(problem) not in {str(p) for p in self.problems}:
                            self.problems.append(problem)
                        continue
                    table, origin = compiled, file
        if table is not None:
            self._tables[name] = table
            self._suffixes = None
        self._settled.add(name)

    def _compile(self, number: int) -> FileOutcome:
        outcome = self._compiled.get(number)
        if outcome is not None:
            return outcome
        entry = self._index.files[number]
        path = self._index.root / entry.path
        outcome = compile_file(path, self._config, self._shared)
        if _digest(outcome.content) != self._index.digests[entry.path]:
            raise StaleIndex(f"{path} changed")
        if outcome.creates is None or tuple(outcome.creates) != entry.creates:
            raise StaleIndex(f"{path} creates other tables")
        self._compiled[number] = outcome
        self.problems += outcome.problems
        return outcome

    def compiled_files(self) -> list[str]:
        """The files compiled so far, as load problems name them."""
        return [str(self._index.root / self._index.files[n].path) for n in sorted(self._compiled)]

    def load_all(self) -> None:
        """Compile every table (``names()``, ``tables()``, ``show tables``)."""
        if self._all_loaded:
            return
        try:
            for number in range(len(self._index.files)):
                self._compile(number)
        except StaleIndex as e:
            log.info("table index of %s is stale (%s): loading every table", self._index.root, e)
            self._load_everything()
            return
        for name in self._defined:
            if name not in self._settled:
                self._settle(name)
        self._all_loaded = True

    def _load_everything(self) -> None:
        """The full load, as without an index (and a fresh index for next time)."""
        registry, problems = load_and_index(self._index.root, self._config, self._patch_paths)
        self._tables = dict(registry._tables)
        self._suffixes = None
        self.problems[:] = problems  # the same list: the engine holds it
        self._all_loaded = True


def load_and_index(root: Path, config: Any, patch_paths: list[Path] | None) -> tuple[TableRegistry, list[LoadProblem]]:
    """The full load of ``root``, writing its index on the way."""
    writer = IndexWriter(root)
    registry, problems = load_tables_dir(root, config, patch_paths=patch_paths, record=writer.record)
    writer.write()
    return registry, problems


def open_tables(
    directory: str | Path | None, config: Any, *, patch_paths: list[Path] | None = None, lazy: bool = False
) -> tuple[TableRegistry, list[LoadProblem]]:
    """The tables of ``directory``: all compiled now (``lazy`` false: the gateway), or
    through the index, compiled as names are asked for (``qlgate run``)."""
    if not lazy or directory is None or not enabled():
        return load_tables_dir(directory, config, patch_paths=patch_paths)
    root = Path(directory)
    if not root.is_dir():
        return load_tables_dir(directory, config, patch_paths=patch_paths)
    index = read_index(root)
    if index is None:
        return load_and_index(root, config, patch_paths)
    registry = IndexedRegistry(index, config, patch_paths)
    return registry, registry.problems
