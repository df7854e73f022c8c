"""The modules a run's first upstream call and first answer need, imported before the
run's clock starts.

The engine imports its HTTP client, the sender and the answer codecs when a script
first calls a table (a script that calls nothing starts without them), so the first
call of a fresh ``qlgate run`` started some 15-25 ms into the script: the run waited
for imports with its clock running. ``Engine.compile`` calls ``import_call_path`` for
a script with a table statement, before the script runs; the imports cost what they
did, once per process, and a script that calls nothing still imports none of them.

A process that runs one script (``qlgate run``, ``commands/script.py``) also freezes
its heap once the script is compiled, as the gateway does at start-up
(``server/startup.py``, ``settle_heap``): the first run of a fresh process allocates
enough to trigger a full collection, which walked every module and class imported
so far inside the run; ``qlgate run`` of a 30-value fan-out started its first call
13-38 ms into the script instead of 1.3 ms. ``gc.freeze`` is a list splice, not a
collection: start-up does not pay what the run saves. Only cyclic garbage alive at
that moment is kept (the process is about to exit anyway), which is why the command
decides it and not the engine: an application that embeds the engine (``qlgate.run``,
the shell) keeps its heap as it is.
"""

from __future__ import annotations

import gc
import importlib

# what a sys.modules diff around the first call and answer of `qlgate run` showed being
# imported (with what these import in turn: httptools, lxml, csv…)
CALL_PATH = ("qlgate.http.client", "qlgate.http.codecs", "qlgate.engine.call_path")
_imported = False
_frozen = False


def import_call_path() -> None:
    """Import what the first upstream call and answer need; once per process."""
    global _imported
    if not _imported:
        for name in CALL_PATH:
            importlib.import_module(name)
        _imported = True


def call_path_imported() -> bool:
    return _imported


def settle_one_shot_heap() -> None:
    """Freeze what the process holds before its one run starts; once per process."""
    global _frozen
    if not _frozen:
        gc.freeze()
        _frozen = True
