"""The committed eBay tables are exactly what the generator writes from the
catalog, cover every call, and compile."""

import json
from pathlib import Path

from qlgate.ebay.generate import generate
from qlgate.tables.registry import load_tables_dir

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "data" / "ebay" / "catalog.json"  # committed: these tests run in every clone


def test_committed_tables_are_up_to_date():
    files = generate(json.loads(CATALOG.read_text()))
    stale = [rel for rel, text in files.items() if (ROOT / "tables" / "ebay" / rel).read_text() != text]
    assert stale == [], "run: python -m qlgate.ebay.generate  (stale: " + ", ".join(stale[:5]) + ")"


def test_every_catalog_call_has_a_table_with_its_verbs():
    catalog = json.loads(CATALOG.read_text())
    registry, problems = load_tables_dir(ROOT / "tables", {})
    assert problems == []
    for call in catalog["calls"]:
        table = registry.get(call["table"])
        assert set(call["ql_verbs"]) <= set(table.mappings), call["table"]
    for call in catalog["not_covered_by_ql_io_tables"]:
        assert registry.get(f"ebay.{call['service']}.{call['call']}")
    legacy = ("ebay.finding.", "ebay.shopping.", "ebay.trading.")  # the REST tables: test_rest_generate.py
    assert len([n for n in registry.names() if n.startswith(legacy)]) == (
        catalog["counts"]["total"] + catalog["counts"]["not_covered"]
    )


def test_tables_read_every_endpoint_and_credential_from_config():
    registry, _ = load_tables_dir(
        ROOT / "tables",
        {
            "tables": {
                "ebay": {
                    "trading": {"gateway": "http://T", "version": "9", "siteid": "3", "eBayAuthToken": "tok"},
                    "finding": {"gateway": "http://F", "appname": "app"},
                    "shopping": {"gateway": "http://S"},
                }
            }
        },
    )
    for table in registry.tables():
        if not table.name.startswith(("ebay.finding.", "ebay.shopping.", "ebay.trading.")):
            continue  # the REST tables read theirs from tables.ebay.rest (test_rest_generate.py)
        for mapping in table.mappings.values():
            assert mapping.uri.raw.startswith(("http://T", "http://F", "http://S")), table.name
