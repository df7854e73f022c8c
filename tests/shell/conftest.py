"""A workspace of one table on a loopback upstream, and a shell on it whose
output the tests read."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from qlgate.shell.app import Shell
from qlgate.shell.meta import Settings
from qlgate.shell.session import Session
from qlgate.workspace import Workspace

TABLE = """-- Keyword search of the test shop.
-- Columns: q, n, sort (query)
create table shop.search on select get from '{config.base}/s?q={^q}&n={n}'
  using defaults n = 10
  using headers 'X-Site' = '{site}'
"""


@dataclass
class Rig:
    shell: Shell
    out: io.StringIO
    err: io.StringIO

    @property
    def session(self) -> Session:
        return self.shell.session

    def take(self) -> tuple[str, str]:
        """What was printed since the last take: (stdout, stderr)."""
        out, err = self.out.getvalue(), self.err.getvalue()
        for stream in (self.out, self.err):
            stream.seek(0)
            stream.truncate()
        return out, err


@pytest.fixture
def shop_tables(tmp_path: Path) -> Path:
    tables = tmp_path / "tables"
    (tables / "shop").mkdir(parents=True)
    (tables / "shop" / "search.ql").write_text(TABLE)
    return tables


@pytest.fixture
async def rig(upstream, shop_tables: Path) -> AsyncIterator[Rig]:
    upstream.reply("GET", "/s", json_body=[{"id": 1, "title": "red camera"}, {"id": 2, "title": "blue camera"}])
    workspace = await Workspace.open(tables=shop_tables, config={"base": upstream.base}, lazy=True)
    try:
        out, err = io.StringIO(), io.StringIO()
        shell = Shell(Session(workspace, variables={"given": "from --var"}), Settings(), out=out, err=err)
        yield Rig(shell, out, err)
    finally:
        await workspace.close()
