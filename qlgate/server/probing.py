"""``serve --probe-every SECONDS``: the first worker probes the tables (``qlgate
probe``'s ``probe_tables``) in the background and exports what it found as the
gauges ``qlgate_table_probe_up`` and ``qlgate_table_probe_duration_seconds``, so
a broken table shows on the dashboard and can page someone before a user
notices. One worker only: N workers probing would spend the partners' quota N
times over. The probes go through the gateway's engine (its limits and cache
apply, as for any call) and write no log line per table; a failed one is a
warning.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .gateway import Gateway

log = logging.getLogger("qlgate.server")

FIRST_AFTER_S = 2.0  # the first round: once the gateway serves, not during its start


def start_probing(gateway: Gateway, every: float, state: str, budget: int = 20, timeout: float = 15.0) -> None:
    """Probe every ``every`` seconds until the gateway closes."""
    task = asyncio.get_running_loop().create_task(_rounds(gateway, every, Path(state), budget, timeout))

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    gateway.on_close(stop)


async def _rounds(gateway: Gateway, every: float, state: Path, budget: int, timeout: float) -> None:
    from ..commands.probe import probe_tables

    args = SimpleNamespace(prefixes=[], budget=budget, timeout=timeout)
    await asyncio.sleep(FIRST_AFTER_S)
    while True:
        try:
            await probe_tables(gateway.workspace.engine, args, state, lambda report: _export(gateway, report))
        except Exception:  # a round that failed as a whole (its state file, say): the next one tries again
            log.exception("probing the tables")
        await asyncio.sleep(every)


def _export(gateway: Gateway, report: dict[str, Any]) -> None:
    status = report["status"]
    if status == "failed" or status == "changed":
        log.warning("probe: %s %s: %s", report["table"], status, report.get("error") or report.get("lost"))
    metrics = gateway.metrics
    if metrics is None or status == "skipped":
        return
    key = (report["table"],)
    metrics.families["qlgate_table_probe_up"].values[key] = 1 if status == "ok" else 0
    if "ms" in report:
        metrics.families["qlgate_table_probe_duration_seconds"].values[key] = report["ms"] / 1000
    metrics.changes += 1
