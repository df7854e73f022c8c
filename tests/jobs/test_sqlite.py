"""Processes opening one fresh job database at the same moment (the gateway's
--workers do) all get it: none dies of "database is locked"."""

from __future__ import annotations

import multiprocessing
import time

from qlgate.limits.stores.sqlite import open_database

SCHEMA = "create table if not exists opened (pid integer);"


def open_and_write(path: str, start_at: float) -> None:
    import os

    while time.time() < start_at:
        pass
    db = open_database(path, SCHEMA)
    db.execute("insert into opened values (?)", (os.getpid(),))
    db.close()


def test_processes_opening_a_new_database_at_once_all_get_it(tmp_path):
    context = multiprocessing.get_context("fork")
    for attempt in range(5):  # a fresh file each time: WAL is turned on once per file
        path = str(tmp_path / f"jobs-{attempt}.sqlite")
        start_at = time.time() + 0.3
        procs = [context.Process(target=open_and_write, args=(path, start_at)) for _ in range(6)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(30)
        assert [proc.exitcode for proc in procs] == [0] * 6
        db = open_database(path, SCHEMA)
        assert db.execute("pragma journal_mode").fetchone() == ("wal",)
        assert db.execute("select count(*) from opened").fetchone() == (6,)
