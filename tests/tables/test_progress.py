"""A long table load says how far it is while it runs; a quick one says nothing
(``qlgate/tables/progress.py``): ``qlgate serve`` once printed nothing for 16.8 s."""

from __future__ import annotations

import logging

import pytest

from qlgate.tables import progress
from qlgate.tables.index import load_and_index
from qlgate.tables.registry import load_tables_dir


@pytest.fixture
def tree(tmp_path):
    for n in range(5):
        (tmp_path / f"t{n}.ql").write_text(f"create table t.n{n} on select get from 'http://127.0.0.1:9/{n}'")
    return tmp_path


class Ticking:
    """A clock that moves 0.6 s each time it is read: every file of a load is slow."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.6
        return self.now


def test_a_slow_load_says_how_far_it_is_and_when_it_is_done(tree, caplog, monkeypatch):
    clock = Ticking()
    monkeypatch.setattr(progress.LoadProgress.__init__, "__kwdefaults__", {"clock": clock})
    with caplog.at_level(logging.INFO, logger="qlgate.tables.progress"):
        registry, problems = load_tables_dir(tree, {})
    said = [r.getMessage() for r in caplog.records if r.name == "qlgate.tables.progress"]
    assert len(registry) == 5 and problems == []
    assert said[0] == f"loading tables: 2 of 5 files under {tree}"  # past FIRST_S (1 s) after the second file
    assert said[-1].startswith(f"loaded 5 table files under {tree} in ")
    assert len(said) < 5 + 1  # every EVERY_S, not every file


def test_building_the_index_says_so(tree, caplog, monkeypatch, tmp_path_factory):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setattr(progress.LoadProgress.__init__, "__kwdefaults__", {"clock": Ticking()})
    with caplog.at_level(logging.INFO, logger="qlgate.tables.progress"):
        load_and_index(tree, {}, None)
    assert "(building the table index; later starts read it)" in caplog.text


def test_a_quick_load_says_nothing(tree, caplog):
    with caplog.at_level(logging.INFO, logger="qlgate.tables.progress"):
        load_tables_dir(tree, {})
    assert [r for r in caplog.records if r.name == "qlgate.tables.progress"] == []
