"""The table index (``qlgate/tables/index.py``): ``qlgate run`` compiles only the
tables a script names, and answers exactly as a full load of the tree would —
whatever happened to the tree or the index since it was written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from qlgate.engine.engine import Engine
from qlgate.errors import AmbiguousTable, TableNotFound
from qlgate.tables.index import IndexedRegistry, index_path, open_tables, read_index
from qlgate.tables.registry import TableRegistry, load_tables_dir

OLD = 1_600_000_000  # a time long past: entries this old are checked by their stat alone


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("QLGATE_TABLE_INDEX", raising=False)


def table(name: str, path: str = "/x") -> str:
    return f"create table {name} on select get from 'http://127.0.0.1:1{path}'\n"


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "tables"
    write(root, "ebay/buy/browse/search.ql", table("ebay.buy.browse.search", "/browse"))
    write(root, "ebay/buy/browse/getItem.ql", table("ebay.buy.browse.getItem", "/item"))
    write(root, "ebay/finding/find.ql", table("ebay.finding.findItemsByKeywords", "/find"))
    write(root, "shop/a.ql", table("shop.a.search", "/shop-a"))
    write(root, "shop/b.ql", table("shop.b.search", "/shop-b"))
    write(root, "broken.ql", "create table broken on select get frm 'x'")
    write(
        root, "needs_patch.ql", "create table patched on select get from 'http://127.0.0.1:1/p' using patch 'gone.py'"
    )
    return root


def age(root: Path) -> None:
    """Every file and directory of the tree made old (not racy: stat alone decides)."""
    for path in [root, *root.rglob("*")]:
        os.utime(path, (OLD, OLD))


def indexed(root: Path) -> IndexedRegistry:
    registry, _ = open_tables(root, {}, lazy=True)
    if not isinstance(registry, IndexedRegistry):  # the first open writes the index
        registry, _ = open_tables(root, {}, lazy=True)
    assert isinstance(registry, IndexedRegistry)
    return registry


def answers(registry: TableRegistry, names: list[str]) -> list[str]:
    out = []
    for name in names:
        try:
            table = registry.find(name)
            out.append(f"{name} -> {table.name if table else None}")
        except AmbiguousTable as e:
            out.append(f"{name} -> ambiguous {e.message}")
    return out


QUERIES = [
    "ebay.buy.browse.search",
    "browse.search",
    "buy.browse.search",
    "search",
    "getItem",
    "findItemsByKeywords",
    "shop.a.search",
    "a.search",
    "patched",
    "broken",
    "nosuch",
    "nosuch.search",
]


def test_the_first_run_loads_everything_and_writes_the_index_the_next_compiles_only_what_is_named(tree):
    first, _ = open_tables(tree, {}, lazy=True)
    assert not first.lazy and index_path(tree).is_file()
    registry = indexed(tree)
    assert registry.compiled_files() == []
    assert registry.find("browse.search").name == "ebay.buy.browse.search"
    assert registry.compiled_files() == [str(tree / "ebay/buy/browse/search.ql")]
    assert registry.get("ebay.finding.findItemsByKeywords").name == "ebay.finding.findItemsByKeywords"
    assert len(registry.compiled_files()) == 2


def test_lookups_answer_as_a_full_load(tree):
    full, full_problems = load_tables_dir(tree, {})
    registry = indexed(tree)
    assert answers(registry, QUERIES) == answers(full, QUERIES)
    with pytest.raises(TableNotFound, match="No such table nosuch"):
        registry.get("nosuch")
    with pytest.raises(AmbiguousTable, match=r"ebay\.buy\.browse\.search, shop\.a\.search, shop\.b\.search"):
        registry.get("search")
    assert registry.names() == full.names()  # every table, compiled on demand
    assert sorted(map(str, registry.problems)) == sorted(map(str, full_problems))


def test_problems_are_known_for_files_that_do_not_parse_at_once_and_for_a_table_when_it_is_named(tree):
    registry = indexed(tree)
    assert [p.file for p in registry.problems] == [str(tree / "broken.ql")]
    assert registry.find("patched") is None  # its patch is missing: it did not compile
    assert [p.file for p in registry.problems] == [str(tree / "broken.ql"), str(tree / "needs_patch.ql")]
    assert "gone.py" in registry.problems[-1].message


def test_a_later_file_that_fails_leaves_the_earlier_table_as_a_full_load_does(tree):
    write(tree, "zz/again.ql", "create table shop.a.search on select get from 'http://x/' using patch 'gone.py'")
    full, _ = load_tables_dir(tree, {})
    registry = indexed(tree)
    assert (
        registry.get("shop.a.search").mappings["select"].uri.raw == full.get("shop.a.search").mappings["select"].uri.raw
    )
    assert "/shop-a" in registry.get("shop.a.search").mappings["select"].uri.raw


@pytest.mark.parametrize("racy", [True, False], ids=["just-written", "old"])
def test_an_edited_file_invalidates_the_index_even_at_the_same_size(tree, racy):
    if not racy:
        age(tree)
    indexed(tree)
    target = tree / "shop/a.ql"
    target.write_text(table("shop.a.search", "/shop-A"))  # same size, new content
    if not racy:
        os.utime(target, (OLD, OLD))  # the same mtime too: the ctime still tells
    assert read_index(tree) is None
    registry, _ = open_tables(tree, {}, lazy=True)
    assert "/shop-A" in registry.get("a.search").mappings["select"].uri.raw
    assert "/shop-A" in indexed(tree).get("a.search").mappings["select"].uri.raw


@pytest.mark.parametrize("racy", [True, False], ids=["just-written", "old"])
def test_an_added_removed_or_renamed_file_invalidates_the_index(tree, racy):
    if not racy:
        age(tree)
    indexed(tree)
    write(tree, "shop/deep/c.ql", table("shop.c.search", "/shop-c"))
    assert read_index(tree) is None
    assert indexed(tree).get("c.search").name == "shop.c.search"
    (tree / "shop/b.ql").unlink()
    assert read_index(tree) is None
    registry = indexed(tree)
    assert registry.find("shop.b.search") is None
    with pytest.raises(AmbiguousTable):
        registry.get("search")  # still ambiguous among the others
    (tree / "shop/a.ql").rename(tree / "shop/renamed.ql")
    assert read_index(tree) is None
    assert indexed(tree).get("shop.a.search").name == "shop.a.search"


def test_a_corrupt_or_foreign_index_falls_back_to_a_full_load_and_is_rewritten(tree):
    indexed(tree)
    for garbage in ["", "{", "[]", '{"format": 1}', "null", '{"format": 1, "root": 3}']:
        index_path(tree).write_text(garbage)
        assert read_index(tree) is None
        registry, problems = open_tables(tree, {}, lazy=True)
        assert not registry.lazy and registry.get("browse.search").name == "ebay.buy.browse.search"
        assert [p.file for p in problems] == [str(tree / "broken.ql"), str(tree / "needs_patch.ql")]
        assert read_index(tree) is not None


def test_a_file_changed_after_the_index_was_checked_turns_into_a_full_load(tree):
    registry = indexed(tree)
    write(tree, "ebay/buy/browse/search.ql", table("ebay.buy.browse.search", "/changed") + table("late.added"))
    assert "/changed" in registry.get("browse.search").mappings["select"].uri.raw
    assert registry.get("late.added").name == "late.added"  # the full load saw it
    assert read_index(tree) is not None  # and wrote a fresh index


def test_the_index_can_be_turned_off(tree, monkeypatch):
    indexed(tree)
    monkeypatch.setenv("QLGATE_TABLE_INDEX", "off")
    registry, _ = open_tables(tree, {}, lazy=True)
    assert not registry.lazy


async def test_an_engine_on_the_index_runs_scripts_and_lists_every_table(tree):
    indexed(tree)
    engine = Engine(tables=tree, config={}, lazy_tables=True)
    try:
        assert engine.tables.lazy
        listed = (await engine.execute("return show tables;")).value
        eager = Engine(tables=tree, config={})
        try:
            assert listed == (await eager.execute("return show tables;")).value
            assert sorted(map(str, engine.problems)) == sorted(map(str, eager.problems))
        finally:
            await eager.close()
        described = (await engine.execute("return describe browse.search;")).value
        assert "ebay.buy.browse.search" in str(described)
    finally:
        await engine.close()


def test_a_name_defined_twice_is_a_problem_and_the_first_file_keeps_it_loaded_either_way(tree):
    write(tree, "shop/z_again.ql", table("shop.a.search", "/again"))
    full, full_problems = load_tables_dir(tree, {})
    registry = indexed(tree)
    for loaded in (full, registry):
        assert loaded.get("shop.a.search").mappings["select"].uri.raw.endswith("/shop-a")
    again = [p for p in full_problems if "defined again" in p.message]
    assert [(p.file, p.message) for p in again] == [
        (str(tree / "shop/z_again.ql"), f"table shop.a.search is defined again (first in {tree / 'shop/a.ql'})")
    ]
    assert [str(p) for p in registry.problems if "defined again" in p.message] == [str(p) for p in again]
