"""A real emulator on 127.0.0.1 and an engine with the repository's eBay tables
pointed at it."""

from pathlib import Path

import pytest

from qlgate.engine.engine import Engine

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def ebay(emulator):
    async with Engine(tables=ROOT / "tables", routes=ROOT / "routes", config=emulator.config()) as engine:
        yield engine
