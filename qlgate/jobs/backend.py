"""What a job backend is, as types: the operations the gateway's jobs API, the
``qlgate jobs`` command and the contract suite call, whichever backend answers.

Two backends keep the same contract — the embedded one (``local.LocalJobs``:
SQLite, jobs run in the gateway's own process) and the cluster's
(``zk.client.ZkJobs``: ZooKeeper, jobs run by workers). Neither inherits from
anything here: the Protocols only say what both already offer, so mypy checks
each against it where it is used, and ``isinstance`` checks it at run time
(``runtime_checkable``: method names only, not their signatures).

A third client, ``rest_client.GatewayJobs``, reaches a backend through a
gateway's REST API. It offers what a user may ask of jobs (``JobClient``) but
not what only an operator of the backend sees (workers, the master, the runs
holding slots), so it is a ``JobClient`` and not a ``JobBackend``.

Every operation blocks (a database or ZooKeeper round trip, ``wait`` until jobs
end): async code calls them in a thread. Errors are ``model.JobError`` and its
subclasses, whose ``status`` is the HTTP status the gateway answers with
(400 a bad request, 404 ``JobNotFound``, 429 ``QueueFull``).
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..limits.rate import Rate
from .model import Job, JobSpec

__all__ = ["JobBackend", "JobClient"]


@runtime_checkable
class JobClient(Protocol):
    """What a user may do with jobs: submit, read, wait for and cancel them, and
    read or set the limits and call rates of their types."""

    def submit(self, spec: JobSpec) -> int:
        """Queue the job ``spec`` asks for and answer its id. A second submission under
        the same ``idempotency_key`` (and owner) answers the first one's id instead of
        queueing again, so a client may retry a submission whose answer it lost. Raises
        ``QueueFull`` (429, with ``retry_after``) when the queue is at its bound."""
        ...

    def get(self, job_id: int) -> Job:
        """The job's record; ``JobNotFound`` for an id that names no job."""
        ...

    def list(self, state: str | None = None, limit: int = 1000) -> builtins.list[Job]:
        """Jobs newest first, only those in ``state`` when given, at most ``limit``."""
        ...

    def wait(self, job_ids: Iterable[int], timeout: float | None = None) -> builtins.list[Job]:
        """Block until every job is final; their records, in the order asked.
        ``TimeoutError`` when ``timeout`` seconds pass first."""
        ...

    def cancel(self, job_id: int) -> Job:
        """Cancel a job: a queued one at once, a running one when its run sees the
        request. A final job is answered as it is."""
        ...

    def set_limit(self, job_type: str, limit: int | None) -> None:
        """How many runs of ``job_type`` may hold a slot at once; ``None`` removes
        the limit (worker slots alone bound the type)."""
        ...

    def limits(self) -> dict[str, dict[str, Any]]:
        """Each type with a limit or with jobs: ``{"limit": int | None, "running":
        int, "waiting": int}``."""
        ...

    def set_rate(self, job_type: str, rate: Rate | None) -> None:
        """The call rate every job of ``job_type`` shares; ``None`` removes it."""
        ...

    def rates(self) -> dict[str, Rate]:
        """Each type's call rate."""
        ...

    def load_result(self, job: Job) -> Any:
        """A done job's result, wherever the backend keeps it (its record, or the
        cluster's database when it was too large for the record)."""
        ...

    def close(self) -> None:
        """Let go of the connection or database; the client is not used after."""
        ...


@runtime_checkable
class JobBackend(JobClient, Protocol):
    """A backend itself: what ``JobClient`` offers, the submission's trust and
    owner (the gateway records who submitted a caller's job, and under which
    policy it runs), and what an operator sees of the machinery."""

    max_queue: int
    """Jobs the queue may hold before ``submit`` answers ``QueueFull``."""
    max_run_seconds: float
    """The longest a run may take (config ``jobs.maxRunSeconds``); no job may ask for longer."""

    def submit(self, spec: JobSpec) -> int:
        """As ``JobClient.submit``, with the spec's ``trust``, ``owner`` and ``policy``
        recorded: a backend runs a caller's job under the policy of the gateway that
        took it, and lists it to the key that submitted it."""
        ...

    def list(self, state: str | None = None, limit: int = 1000, *, owner: str | None = None) -> builtins.list[Job]:
        """As ``JobClient.list``; ``owner``: only the jobs the key of that name submitted."""
        ...

    def stored_result(self, job: Job) -> bytes | None:
        """A done job's result as the database keeps it (JSON bytes), for the gateway
        to send without decoding it; ``None`` when the result is in the record."""
        ...

    def workers(self) -> dict[str, dict[str, Any]]:
        """Each worker by name: its ``slots``, how many are ``busy``, when it ``started``."""
        ...

    def master(self) -> str | None:
        """The name of whoever hands out slots now (the limiter master), or ``None``."""
        ...

    def running_runs(self) -> builtins.list[tuple[str, int, int]]:
        """``(type, job id, run)`` of every slot in use."""
        ...


if TYPE_CHECKING:
    # never run: mypy checks, with the package, that each backend keeps its Protocol, so a
    # signature that drifts fails the check rather than a user (one function each, so the
    # error names the class and the member that differs)
    from .local import LocalJobs
    from .rest_client import GatewayJobs
    from .zk.client import ZkJobs

    def _embedded(jobs: LocalJobs) -> JobBackend:
        return jobs

    def _cluster(jobs: ZkJobs) -> JobBackend:
        return jobs

    def _through_a_gateway(jobs: GatewayJobs) -> JobClient:
        return jobs
