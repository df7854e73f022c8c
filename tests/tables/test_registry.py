"""Loading a tables tree and resolving names by unique suffix."""

import pytest

from qlgate.errors import AmbiguousTable, TableNotFound
from qlgate.tables.registry import load_tables_dir


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_suffix_resolution_and_ambiguity(tmp_path):
    write(
        tmp_path,
        {
            "ebay/trading/AddToWatchList.ql": "create table ebay.trading.AddToWatchList on insert post to '{config.gw}'",
            "ebay/shopping/GetItem.ql": "create table ebay.shopping.GetItem on select get from 'x'",
            "ebay/trading/GetItem.ql": "create table ebay.trading.GetItem on select get from 'x'",
        },
    )
    registry, problems = load_tables_dir(tmp_path, {"gw": "http://gw"})
    assert problems == []
    assert registry.get("trading.AddToWatchList").name == "ebay.trading.AddToWatchList"
    assert registry.get("AddToWatchList").mappings["insert"].uri.raw == "http://gw"  # {config} at load time
    with pytest.raises(AmbiguousTable, match=r"ebay\.shopping\.GetItem, ebay\.trading\.GetItem"):
        registry.get("GetItem")
    with pytest.raises(TableNotFound, match="No such table nope"):
        registry.get("nope")


def test_a_broken_file_is_reported_with_position_and_the_rest_load(tmp_path):
    write(
        tmp_path,
        {
            "a.ql": "create table a on select get from 'x'",
            "b.ql": "create table b on select gett from 'x'",
            "c.ql": "create table c on select get from 'x' using patch 'missing.py'",
        },
    )
    registry, problems = load_tables_dir(tmp_path, {})
    assert registry.names() == ["a"]
    assert [(p.file.endswith(f), p.line) for p, f in zip(problems, ("b.ql", "c.ql"))] == [(True, 1), (True, 1)]
    assert "gett" in problems[0].message and "missing.py" in problems[1].message
