"""The entry points of one group and name, read from the ``*.dist-info`` and
``*.egg-info`` directories on ``sys.path`` without ``importlib.metadata``.

Importing ``importlib.metadata`` (it brings ``email``, ``csv``, ``zipfile`` and more)
and listing every installed distribution's entry points took some 20 ms of a
``qlgate run -e 'return 1;'`` that should start in 250 ms (issue 31), and the run
asks for one entry point: the eBay emulator's (``qlgate/emulators.py``). This reads
only the directories on the path, as ``importlib.metadata`` does for them (the first
distribution of a name wins); ``emulators.py`` falls back to ``importlib.metadata``
when nothing here loads, so zipped or otherwise found distributions still count.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EntryPoint:
    """What ``importlib.metadata.EntryPoint`` offers that ``find_emulator`` uses."""

    name: str
    value: str  # "module:attribute [extras]"

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()

    def load(self) -> Any:
        found: Any = importlib.import_module(self.module)
        attributes = self.value.partition(":")[2].partition("[")[0].strip()
        for attribute in filter(None, attributes.split(".")):
            found = getattr(found, attribute)
        return found


def _distributions() -> list[str]:
    """The metadata directories on ``sys.path``, the first of each distribution name."""
    seen: set[str] = set()
    found = []
    for entry in sys.path:
        directory = entry or "."
        try:
            children = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
        except OSError:
            continue
        for child in children:
            stem, dot, kind = child.rpartition(".")
            if not dot or kind not in ("dist-info", "egg-info"):
                continue
            name = stem.partition("-")[0].lower().replace("-", "_").replace(".", "_")
            if name not in seen:
                seen.add(name)
                found.append(os.path.join(directory, child))
    return found


def entry_points(group: str, name: str) -> list[EntryPoint]:
    """The entry points ``name`` of ``group``, in the order of the path."""
    found = []
    for distribution in _distributions():
        try:
            with open(os.path.join(distribution, "entry_points.txt"), encoding="utf-8") as file:
                text = file.read()
        except OSError:
            continue
        section = None
        for line in text.splitlines():
            line = line.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1].strip()
            elif section == group:
                key, equals, value = line.partition("=")
                if equals and key.strip() == name:
                    found.append(EntryPoint(name, value.strip()))
    return found
