"""Runs a job's script with an engine: the same engine, tables and config as
``qlgate run``; variables come from the job. Failures carry the engine's
message with config secrets masked."""

from __future__ import annotations

import asyncio
from typing import Any

from ..engine.engine import Engine
from ..errors import QlError
from ..values import MISSING
from .model import Job
from .rates import CallGate


class JobFailed(Exception):
    """The script failed; the message is safe to store and show."""


class EngineRunner:
    def __init__(self, engine: Engine, gate: CallGate | None = None):
        self.engine = engine
        self.gate = gate                 # call-rate limits, awaited before each upstream call

    async def __call__(self, job: Job) -> Any:
        try:
            result = await self.engine.execute(job.script, context=job.vars, request_id=f"job-{job.id}-{job.run}",
                                               call_gate=self.gate)
        except QlError as error:
            raise JobFailed(self.engine.config.secrets.mask(str(error))) from None
        return None if result.value is MISSING else result.value

    async def close(self) -> None:
        if self.gate is not None:
            await asyncio.to_thread(self.gate.give_back)
        await self.engine.close()
