"""The shared conformance suite (derived from ql.io's engine tests), run
against this build through the command-line contract."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "run.py"

# Cases where qlgate deliberately differs, each explained in README.md.
KNOWN_DEVIATIONS = {
    # issue 2: a fan-out larger than maxNestedRequests is processed in windows, never silently cut
    "config-max-nested-requests",
}


def test_conformance_suite():
    """Skipped in a clone alone (the cases are outside material); CI, which has them, sets
    QLGATE_REQUIRE_SHARED=1 so that their absence there fails instead of passing unseen."""
    if not RUNNER.exists():
        if os.environ.get("QLGATE_REQUIRE_SHARED") == "1":
            pytest.fail(f"QLGATE_REQUIRE_SHARED=1 but {RUNNER.parent} is not there")
        pytest.skip("../shared/conformance (ql.io's engine tests as cases) is not beside this checkout")
    env = {**os.environ, "QLGATE_CMD": f"{sys.executable} -m qlgate"}
    proc = subprocess.run([sys.executable, str(RUNNER)], capture_output=True, text=True, env=env, timeout=900)
    summary = re.search(r"^(\d+) passed, (\d+) failed", proc.stdout, re.M)
    assert summary, proc.stdout[-2000:] + proc.stderr[-2000:]
    failed = set(re.findall(r"^FAIL ([\w-]+):", proc.stdout, re.M))
    assert failed == KNOWN_DEVIATIONS, proc.stdout
    assert int(summary.group(1)) >= 95
