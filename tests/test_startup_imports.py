"""What ``qlgate run -e 'return 1;'`` leaves out (issue 31: it starts in ≤ 250 ms on a
2-core machine). Each name here was imported at start-up before and is now imported
only by what needs it; a change that brings one back costs every ``qlgate run`` the
milliseconds ``bench/startup.py`` measures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# imported by the run only when the embedded job backend's file exists (its host limits)
JOBS = {"qlgate.jobs.factory", "qlgate.jobs.backend", "qlgate.jobs.model", "qlgate.limits.open"}


def _run(tmp_path: Path, *, jobs_database: Path) -> tuple[set[str], str]:
    probe = (
        "import sys; from qlgate.cli import main; code = main(['run', '-e', 'return 1;']); "
        "from qlgate.lang import lift; "
        "print(lift._patterns.cache_info().currsize, ' '.join(sorted(sys.modules)), file=sys.stderr); "
        "sys.exit(code)"
    )
    env = {
        **__import__("os").environ,
        "QLGATE_JOBS_DATABASE": str(jobs_database),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr
    compiled, *loaded = done.stderr.split()
    return set(loaded), compiled


def test_return_1_imports_no_job_backend_and_compiles_no_lift_patterns(tmp_path):
    loaded, compiled = _run(tmp_path, jobs_database=tmp_path / "absent.sqlite")
    assert not JOBS & loaded
    # the emulator's entry point is read from the path (qlgate/entry_points.py), not
    # through importlib.metadata and the email package it brings
    assert "qlgate_ebay_emulator.lazy" in loaded and "importlib.metadata" not in loaded
    assert "zoneinfo" not in loaded  # a rate's time zone is looked up when a rate names one
    assert "html.entities" not in loaded  # a table's Markdown links are checked when rendered
    assert compiled == "0"  # nothing in 'return 1;' to lift: its patterns stay uncompiled


def test_with_a_job_database_the_run_counts_against_its_host_limits(tmp_path):
    """The lazy path still opens the limits when the file is there (what the run did before)."""
    import sqlite3

    database = tmp_path / "jobs.sqlite"
    sqlite3.connect(database).close()
    loaded, _ = _run(tmp_path, jobs_database=database)
    assert "qlgate.jobs.factory" in loaded and "qlgate.limits.open" in loaded


def test_entry_points_read_from_the_path_agree_with_importlib_metadata():
    """qlgate/entry_points.py reads what importlib.metadata finds, for the emulator and
    for the console script: the same values, in the same order."""
    from importlib.metadata import entry_points as metadata

    from qlgate.entry_points import entry_points

    for group, name in (("qlgate.emulators", "ebay"), ("console_scripts", "qlgate")):
        expected = [point.value for point in metadata(group=group, name=name)]
        assert expected and [point.value for point in entry_points(group, name)] == expected
