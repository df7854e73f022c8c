"""The modules a run's first upstream call and first answer need, imported before the
run's clock starts.

The engine imports its HTTP client, the sender and the answer codecs when a script
first calls a table (a script that calls nothing starts without them), so the first
call of a fresh ``qlgate run`` started some 15-25 ms into the script: the run waited
for imports with its clock running. ``Engine.compile`` calls ``import_call_path`` for
a script with a table statement, before the script runs; the imports cost what they
did, once per process, and a script that calls nothing still imports none of them.
"""

from __future__ import annotations

import importlib

# what a sys.modules diff around the first call and answer of `qlgate run` showed being
# imported (with what these import in turn: httptools, lxml, csv…)
CALL_PATH = ("qlgate.http.client", "qlgate.http.codecs", "qlgate.engine.sending")
_imported = False


def import_call_path() -> None:
    """Import what the first upstream call and answer need; once per process."""
    global _imported
    if not _imported:
        for name in CALL_PATH:
            importlib.import_module(name)
        _imported = True


def call_path_imported() -> bool:
    return _imported
