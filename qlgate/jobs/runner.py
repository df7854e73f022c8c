"""Runs a job's script with an engine: the same workspace (tables, config) as
``qlgate run``, under the trust the job was submitted with; variables come from
the job. Failures carry the engine's message with config secrets masked."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ..engine.engine import Engine
from ..engine.options import RunOptions
from ..errors import QlError
from ..values import MISSING
from ..workspace import Workspace
from .model import MAX_RUN_SECONDS, Job, JobTimeout, is_final


class JobFailed(QlError):
    """The script failed; the message is safe to store and show. ``final``: whether its
    error would come again on another run (``model.is_final`` of the script's error)."""

    status = 502

    def __init__(self, message: str, *, final: bool = False):
        super().__init__(message)
        self.final = final


def run_seconds(job: Job, max_run_seconds: float = MAX_RUN_SECONDS) -> float:
    """A run's deadline: the job's own max_seconds, never more than the backend's maximum."""
    return max_run_seconds if job.max_seconds is None else min(job.max_seconds, max_run_seconds)


async def run_with_deadline(
    runner: Callable[[Job], Awaitable[Any]], job: Job, max_run_seconds: float = MAX_RUN_SECONDS
) -> Any:
    """Run ``job`` with ``runner``, cancelled past its deadline (both backends run jobs
    through here): a run that never ends — an upstream dripping a byte at a time, a
    script that loops — would otherwise hold its slots for good."""
    seconds = run_seconds(job, max_run_seconds)
    deadline = asyncio.timeout(seconds)
    try:
        async with deadline:
            return await runner(job)
    except Exception:
        # whatever the cancelled script turned the cancellation into, past the deadline it is a timeout
        if deadline.expired():
            raise JobTimeout(f"the run took longer than {seconds:g} s") from None
        raise


class EngineRunner:
    """Runs a job's script under the trust the job records: one submitted over HTTP
    is a caller's and runs under the ad-hoc policy it was submitted under, narrowed
    to this process's own (the allow-list, inline tables or not, no code, public
    config only), on whichever worker takes it. Results are masked like the
    gateway's answers."""

    def __init__(
        self,
        workspace: Workspace | Engine,
        gate: Callable[[str], Awaitable[None]] | None = None,
        *,
        call_deadline: float | None = None,
    ):
        self.workspace = workspace if isinstance(workspace, Workspace) else Workspace.of(workspace)
        self.engine = self.workspace.engine
        self.gate = gate  # a worker's lease, checked before each call (limits are the engine's)
        self.call_deadline = call_deadline  # jobs.callTimeout: no call of a run takes longer

    async def __call__(self, job: Job) -> Any:
        engine, secrets = self.engine, self.engine.config.secrets
        try:
            trust = self.workspace.trust(job.trust)
        except ValueError:
            raise JobFailed(f"the job's trust {job.trust!r} is unknown to this worker") from None
        if trust.is_caller:  # the gateway's policy when it took the job, within this worker's
            trust = trust.narrowed(job.policy)
        try:
            if engine.cached(job.script, trust=trust):
                compiled = engine.compile(job.script, trust=trust)
            else:  # a long compile must not hold up the other runs on this loop
                compiled = await asyncio.to_thread(engine.compile, job.script, trust=trust)
            options = RunOptions(
                context=job.vars,
                request_id=f"job-{job.id}-{job.run}",
                call_gate=self.gate,
                call_deadline=self.call_deadline,
                patient=True,  # a job's calls wait for their API types' limits as long as the run may
                shares_answers=True,  # the result is stored, nothing else
            )
            result = await engine.run_compiled(compiled, options)
        except QlError as error:
            raise JobFailed(secrets.mask(str(error)), final=is_final(error)) from None
        return None if result.value is MISSING else secrets.mask_value(result.value)

    async def close(self) -> None:
        give_back = getattr(self.gate, "give_back", None)
        if give_back is not None:
            await asyncio.to_thread(give_back)
        await self.workspace.close()
