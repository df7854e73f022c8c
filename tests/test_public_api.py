"""What ``import qlgate`` offers: the names it exports, the errors (every one a
QlError, with the status and text it always had) and ``qlgate.run`` for scripts
and notebooks."""

from __future__ import annotations

import asyncio
import json
import threading
import tomllib
from pathlib import Path
from typing import Any

import pytest

import qlgate
from qlgate import errors
from qlgate._version import __version__
from qlgate.diagnostics import Diagnostics
from qlgate.engine.engine import Engine, Result
from qlgate.jobs.archive_errors import ArchiveError, ArchiveUnavailable, ResultTooLarge, SchemaTooNew
from qlgate.jobs.model import JobError, JobNotFound, JobTimeout, QueueFull, RecordError, attempt_error
from qlgate.jobs.rest_client import GatewayUnreachable
from qlgate.jobs.types import NoTable

ROOT = Path(__file__).resolve().parents[1]


def test_the_exported_names_are_the_packages_own_objects():
    assert qlgate.__version__ == __version__
    assert qlgate.Engine is Engine and qlgate.Result is Result and qlgate.Diagnostics is Diagnostics
    assert qlgate.RequestInfo.__name__ == "RequestInfo" and qlgate.MISSING is not None
    for name in qlgate.__all__:
        assert getattr(qlgate, name) is not None, name
    exported_errors = {
        n for n in qlgate.__all__ if isinstance(getattr(qlgate, n), type) and issubclass(getattr(qlgate, n), Exception)
    }
    defined = {n for n, v in vars(errors).items() if isinstance(v, type) and issubclass(v, errors.QlError)}
    assert exported_errors == defined  # every error type qlgate.errors defines, and only those


def test_the_package_ships_its_types():
    assert (ROOT / "qlgate" / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["qlgate"]


@pytest.mark.parametrize(
    "error, status",
    [
        (JobError("bad"), 400),
        (JobNotFound("no job 7"), 404),
        (QueueFull("full", retry_after=2.5), 429),
        (NoTable("no table"), 400),
        (GatewayUnreachable("away"), 503),
        (RecordError("unrecorded"), 500),
        (JobTimeout("too long"), 504),
        (ArchiveError("closed"), 500),
        (ArchiveUnavailable("down"), 503),
        (ResultTooLarge("big"), 500),
    ],
)
def test_every_job_and_archive_error_is_a_ql_error_with_its_status_and_text(error, status):
    assert isinstance(error, qlgate.QlError)
    assert error.status == status
    assert str(error) == error.args[0] == error.message  # the text they always had
    assert attempt_error(error) == f"{type(error).__name__}: {error.args[0]}"
    assert error.to_dict()["type"] == type(error).__name__


def test_statuses_stay_per_instance_and_details_carry_what_an_answer_needs():
    failure = JobError("teapot")
    failure.status = 418  # what the REST client does with a gateway's answer
    assert failure.status == 418 and JobError("x").status == 400
    full = QueueFull("full", retry_after=2.5)
    assert full.retry_after == 2.5 and full.details == {"retry_after": 2.5}
    newer = SchemaTooNew("db", 9, 3)
    assert (newer.found, newer.known, newer.status) == (9, 3, 500) and "schema version 9" in str(newer)


def test_job_errors_are_caught_before_ql_errors_as_before():
    """Code that catches JobError first still gets it there; a QlError clause below it
    now also catches what it used to let through."""

    def classify(error: Exception) -> str:
        try:
            raise error
        except JobError:
            return "job"
        except qlgate.QlError:
            return "ql"

    assert classify(QueueFull("full")) == classify(JobNotFound("no")) == "job"
    assert classify(ArchiveUnavailable("down")) == classify(qlgate.TableNotFound("t")) == "ql"


def test_an_error_outside_a_run_has_no_diagnostics_and_no_warnings():
    error = qlgate.QlError("plain")
    assert error.diagnostics is None and list(error.warnings) == []


@pytest.fixture
def deployment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory: qlgate.run finds no tables, routes nor config there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_run_returns_the_scripts_value(deployment):
    assert qlgate.run("return a;", a=[1, {"b": 2}]) == [1, {"b": 2}]
    assert qlgate.run('x = "one";\nreturn x;') == "one"


def test_a_missing_value_comes_back_as_none_wherever_it_stands(deployment):
    """The engine's MISSING sentinel never reaches the caller: as `qlgate run` prints it, a
    missing member is left out and a missing item is null."""
    assert qlgate.run('return {"a": "{nothing.here}", "b": ["{nothing.there}"]};', nothing={}) == {"b": [None]}


def test_run_works_from_a_thread_without_a_loop(deployment):
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(qlgate.run("return n;", n=3)))
    worker.start()
    worker.join(30)
    assert out == [3]


async def test_run_refuses_a_running_loop_and_says_what_to_do(deployment):
    with pytest.raises(RuntimeError, match=r"event loop is running .*asyncio.to_thread\(qlgate.run"):
        qlgate.run("return 1;")
    assert await asyncio.to_thread(qlgate.run, "return 1;") == 1


def test_a_failed_run_raises_its_ql_error_with_what_the_run_did(deployment):
    with pytest.raises(qlgate.TableNotFound) as failed:
        qlgate.run("return select * from no.such.table;")
    assert failed.value.status == 400 and failed.value.line == 1
    assert isinstance(failed.value.diagnostics, qlgate.Diagnostics) and list(failed.value.warnings) == []


async def test_run_opens_the_tables_and_config_of_the_working_directory(deployment, upstream):
    (deployment / "tables").mkdir()
    (deployment / "tables" / "shop.ql").write_text(
        "create table shop.items on select get from '{config.base}/items?q={q}'"
    )
    (deployment / "config").mkdir()
    (deployment / "config" / "dev.json").write_text(json.dumps({"base": upstream.base}))
    upstream.reply("GET", "/items", json_body={"items": ["camera"]})
    value = await asyncio.to_thread(qlgate.run, 'return select * from shop.items where q = "{q}";', q="camera")
    assert value == {"items": ["camera"]}
    assert upstream.requests[0].query == {"q": "camera"}
