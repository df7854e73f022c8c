"""Where deployer code may come from: the one resolver of every file name that a
table or a script writes (patch and UDF modules, body templates).

A name is relative: it is looked up in the directory of the file that writes it
and then in the deployment's other directories, and it resolves only inside the
deployment's trees — the tables and routes directories, the directory of a
script run with ``qlgate run``, and the config's ``patchPaths``/``udfPaths`` —
after symbolic links are followed. An absolute name, or one that leads outside,
is refused before anything is looked up, so an error never tells whether a path
outside the trees exists. Caller scripts never get here: the trust check refuses
every clause that names a file (``qlgate.trust``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import QlError

MAX_NAME_CHARS = 1024  # a file name written in a table; longer is a typo or an attack


class CodePathError(QlError):
    """A file name in a table or script that cannot be used."""

    status = 400


@dataclass(frozen=True)
class CodeDirs:
    """The directories a file name is looked up in, in order, and the trees it must
    stay inside (every search directory is one of them)."""

    search: tuple[Path, ...] = ()
    roots: tuple[Path, ...] = ()

    @classmethod
    def of(cls, search: Iterable[Path | str | None], roots: Iterable[Path | str | None] = ()) -> CodeDirs:
        dirs = tuple(dict.fromkeys(Path(d) for d in search if d is not None))
        resolved = tuple(dict.fromkeys(_resolve(Path(r)) for r in (*dirs, *roots) if r is not None))
        return cls(dirs, tuple(r for r in resolved if r is not None))

    def plus(self, search: Iterable[Path | str | None], roots: Iterable[Path | str | None] = ()) -> CodeDirs:
        """These directories, then ``search`` (also trees)."""
        return CodeDirs.of((*self.search, *search), (*self.roots, *roots))

    def find(self, name: str, what: str, *, suffixes: tuple[str, ...] | None = None) -> Path:
        """The file ``name`` stands for; ``suffixes`` limits what it may be (code is ``.py`` only:
        a ``.pyc`` or ``.so`` would load machine code)."""
        if not isinstance(name, str) or not name.strip() or "\x00" in name:
            raise CodePathError(f"{what} needs a file name")
        if len(name) > MAX_NAME_CHARS:
            raise CodePathError(f"{what} file name is {len(name)} characters long; the limit is {MAX_NAME_CHARS}")
        shown = name if len(name) <= 120 else name[:117] + "..."
        if os.path.isabs(name) or name.startswith("~"):
            raise CodePathError(f"{what} '{shown}' is an absolute path: name it relative to the file that uses it")
        if suffixes is not None and not name.endswith(suffixes):
            raise CodePathError(f"{what} '{shown}' must be a {' or '.join(suffixes)} file")
        for base in self.search:
            resolved = _resolve(base / name)
            if resolved is None or not any(resolved == r or r in resolved.parents for r in self.roots):
                raise CodePathError(f"{what} '{shown}' leads outside the tables and routes trees")
            if resolved.is_file():
                return resolved
            if resolved.exists():
                raise CodePathError(f"{what} '{shown}' is not a file")
        where = ", ".join(str(d) for d in self.search) or "no directory (none is configured)"
        raise CodePathError(f"{what} '{shown}' not found in {where}")


def _resolve(path: Path) -> Path | None:
    """The path with every symbolic link followed; None when it cannot be resolved
    (a name too long for the file system, a link loop)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def read_text(path: Path, what: str) -> str:
    """A template or module as text: a binary file is a typed error, not a crash."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CodePathError(f"{what} '{path.name}' is not UTF-8 text") from None
    except OSError as e:
        raise CodePathError(f"{what} '{path.name}' cannot be read: {e.strerror or e}") from None
