"""Every ``-- Example:`` of the eBay REST tables runs against the emulator as it
is written (in the order given: an inventory item is created before its offer
is made and published), and each table's doc carries its example."""

from pathlib import Path

from qlgate.ebay.rest_examples import EXAMPLES
from qlgate.engine.engine import Engine
from qlgate.tables.describe import table_example
from qlgate.tables.registry import load_tables_dir

ROOT = Path(__file__).resolve().parents[2]


async def test_every_rest_example_runs_against_the_emulator(emulator):
    async with Engine(tables=ROOT / "tables", config=emulator.config()) as engine:
        for name, script in EXAMPLES.items():
            text = script if "return" in script else f"return {script};"
            result = await engine.execute(text)
            assert result.value is not None, name
        found = await engine.execute('return select itemId from browse.search where q = "camera" limit 3;')
        assert len(found.value) == 3


def test_each_example_is_the_tables_try_it_script():
    registry, _ = load_tables_dir(ROOT / "tables", {})
    for name, script in EXAMPLES.items():
        assert table_example(registry.get(name)) == script, name
