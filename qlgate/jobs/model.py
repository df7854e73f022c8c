"""What a job is: its script and parameters, the partner-API types it needs
slots of, its priority and due time, and what happened on each attempt."""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..config_keys import declared_default
from ..errors import QlError
from ..limits.api_types import check_type
from ..limits.errors import JobError

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
STATES = (QUEUED, RUNNING, DONE, FAILED, CANCELLED)
FINAL = frozenset({DONE, FAILED, CANCELLED})
MAX_PRIORITY = 999  # priorities run from -999 to 999; higher runs first
# a job's record goes into ZooKeeper several times per transaction (the job, its queue entry or
# its hand-over), and ZooKeeper takes requests up to 1 MB: the script and its variables, its
# result and the error of each attempt are kept well below that
MAX_JOB_BYTES = 100_000
MAX_RESULT_BYTES = 250_000  # a result kept in its job's record (no database beside ZooKeeper)
MAX_STORED_RESULT_BYTES: int = declared_default("jobs.maxResultBytes")  # one written to the database
MAX_ERROR_CHARS = 4_000
# what a submission may ask for: bounded, so that no job (nor a typo) can hold a slot, a queue
# entry or a retry loop for ever
MAX_ATTEMPTS = 20
MAX_TYPES = 16
MAX_DELAY_S = 366 * 86400  # not_before at most this far ahead
MAX_RUN_SECONDS = float(declared_default("jobs.maxRunSeconds"))  # a run's deadline unless the config says
MAX_LIMIT = 1_000_000  # a type's limit of runs at once
MAX_JOB_ID = 2**63 - 1  # ids are SQLite integers


class JobNotFound(JobError):
    status = 404


class RecordError(QlError):
    """A run's outcome that could not be written down (say, a result JSON cannot encode):
    the attempt fails with this instead, so its slot is freed and the job moves on."""

    status = 500


class JobTimeout(QlError):
    """A run past its deadline (the job's max_seconds, at most jobs.maxRunSeconds)."""

    status = 504


class QueueFull(JobError):
    """Backpressure: the queue holds as many jobs as it may; retry after ``retry_after`` seconds
    (also in ``details``, where the gateway's error answer finds it for ``Retry-After``)."""

    status = 429

    def __init__(self, message: str, retry_after: float = 1.0):
        super().__init__(message, retry_after=retry_after)
        self.retry_after = retry_after


@dataclass
class Attempt:
    run: int
    worker: str
    started: float  # let through the gate
    ended: float | None = None  # outcome recorded, slots freed
    error: str | None = None
    script_started: float | None = None  # the script itself, on the worker: the rest is bookkeeping
    script_ended: float | None = None


@dataclass
class Job:
    id: int
    script: str
    types: list[str]
    vars: dict[str, Any] = field(default_factory=dict)
    priority: int = 0
    not_before: float = 0.0  # epoch seconds; 0 = at once
    max_attempts: int = 3
    state: str = QUEUED
    run: int = 0  # id of the current or last run; a new one per attempt
    attempts: list[Attempt] = field(default_factory=list)
    submitted: float = field(default_factory=time.time)
    started: float | None = None
    ended: float | None = None
    result: Any = None
    error: str | None = None
    cancel_requested: bool = False
    # who submitted it and under which trust (qlgate.trust): a job that came over HTTP is a
    # caller's script and runs under the ad-hoc policy on every worker; owner is the API key's name
    trust: str = "deployer"
    owner: str | None = None
    policy: dict[str, Any] | None = None  # a caller's job: the ad-hoc policy it was submitted under
    max_seconds: float | None = None  # the run's deadline; None: the backend's jobs.maxRunSeconds
    # the size of a result the worker wrote to the cluster's database (archive.put_result) rather
    # than into the record; None: the result, if any, is in the record
    result_bytes: int | None = None

    @property
    def final(self) -> bool:
        return self.state in FINAL

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data (dataclasses.asdict deep-copies, which the
        limiter paid for on every grant; the record is encoded straight away)."""
        record = dict(self.__dict__)
        record["types"] = list(self.types)
        record["vars"] = dict(self.vars)
        record["attempts"] = [dict(a.__dict__) for a in self.attempts]
        return record

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        """A record as stored; fields a newer qlgate added are left aside, so processes
        of two releases can share a cluster while it is upgraded."""
        known = _JOB_FIELDS
        data = {k: v for k, v in data.items() if k in known}
        data["attempts"] = [
            Attempt(**{k: v for k, v in a.items() if k in _ATTEMPT_FIELDS}) for a in data.get("attempts", [])
        ]
        return cls(**data)


# what runs a job's script (an engine's, ``runner.EngineRunner``): both backends take one
JobRunner = Callable[[Job], Coroutine[Any, Any, Any]]

_JOB_FIELDS = frozenset(Job.__dataclass_fields__)
_ATTEMPT_FIELDS = frozenset(Attempt.__dataclass_fields__)


@dataclass(frozen=True)
class JobSpec:
    """A submission, whole: everything ``submit`` takes, one value from where a job is
    asked for (the gateway's jobs API, ``qlgate jobs submit``, tests, embedding code)
    to every backend (``backend.JobClient.submit``). Checked when submitted
    (``new_job``), against the backend's ``jobs.maxRunSeconds``.

    ``types``: the partner-API types the job needs slots of. ``not_before``: epoch seconds. ``idempotency_key``: a second submission
    under the same key and owner answers the first one's id.

    ``trust``, ``owner`` and ``policy`` are for a backend itself: ``"caller"`` for a
    script that came over HTTP (it runs under ``policy``, the ad-hoc policy of the
    gateway that took it, ``Trust.to_record``), ``"deployer"`` for an operator's;
    ``owner`` names the API key that submitted it. Through a gateway
    (``rest_client.GatewayJobs``) the gateway sets them from the caller's key."""

    script: str
    types: Sequence[str] = ()  # a list or a tuple; kept as a tuple
    vars: dict[str, Any] = field(default_factory=dict)
    priority: int = 0
    not_before: float = 0.0
    max_attempts: int = 3
    max_seconds: float | None = None
    trust: str = "deployer"
    owner: str | None = None
    policy: dict[str, Any] | None = None
    idempotency_key: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.types, str):  # one type named as a string is a mistake, not its letters
            raise JobError("types must be a list of type names, not a string")
        try:
            object.__setattr__(self, "types", tuple(self.types))
        except TypeError:
            raise JobError("types must be a list of type names") from None


def new_job(job_id: int, spec: JobSpec, *, max_run_seconds: float = MAX_RUN_SECONDS) -> Job:
    """The job ``spec`` asks for, every field checked (both backends take jobs through
    here); no run of it may take longer than ``max_run_seconds``."""
    script, vars, max_attempts, max_seconds = spec.script, spec.vars, spec.max_attempts, spec.max_seconds
    not_before, trust, owner, policy = spec.not_before, spec.trust, spec.owner, spec.policy
    if not isinstance(script, str) or not script.strip():
        raise JobError("the script is empty")
    types = sorted({check_type(t) for t in spec.types})
    if not types:
        raise JobError("a job needs at least one type")
    if len(types) > MAX_TYPES:
        raise JobError(f"a job may have at most {MAX_TYPES} types, not {len(types)}")
    if not _whole(max_attempts) or not 1 <= max_attempts <= MAX_ATTEMPTS:
        raise JobError(f"max attempts must be a whole number from 1 to {MAX_ATTEMPTS}, not {max_attempts!r}")
    if max_seconds is not None and (not _finite(max_seconds) or not 0 < max_seconds <= max_run_seconds):
        raise JobError(
            f"max_seconds must be a number of seconds above 0 and at most {max_run_seconds:g} "
            f"(jobs.maxRunSeconds), not {max_seconds!r}"
        )
    if vars is not None and not isinstance(vars, dict):
        raise JobError("vars must be an object of script variables")
    try:
        size = len(json.dumps({"script": script, "vars": vars or {}}, separators=(",", ":")).encode())
    except (TypeError, ValueError):
        raise JobError("vars must be JSON values") from None
    if size > MAX_JOB_BYTES:
        raise JobError(f"the script and its variables take {size:,} bytes; a job may take {MAX_JOB_BYTES:,}")
    try:
        not_before = float(not_before or 0)
    except (TypeError, ValueError, OverflowError):
        raise JobError(f"not before must be a time in epoch seconds, not {not_before!r}") from None
    if not math.isfinite(not_before) or not_before > time.time() + MAX_DELAY_S:
        raise JobError(f"not before must be a time at most {MAX_DELAY_S // 86400} days ahead, not {not_before!r}")
    if trust not in ("deployer", "caller"):
        raise JobError(f"trust must be 'deployer' or 'caller', not {trust!r}")
    if owner is not None and (not isinstance(owner, str) or not 0 < len(owner) <= 200):
        raise JobError("owner must be a key name")
    return Job(
        id=job_id,
        script=script,
        types=types,
        vars=dict(vars or {}),
        priority=check_priority(spec.priority),
        not_before=not_before,
        max_attempts=max_attempts,
        max_seconds=max_seconds,
        trust=trust,
        owner=owner,
        policy=policy if isinstance(policy, dict) else None,
    )


def parse_time(text: str | None, now: float | None = None) -> float:
    """``+90s``, ``+5m``, ``+2h``, epoch seconds, or an ISO 8601 time (UTC when no zone)."""
    if not text:
        return 0.0
    now = time.time() if now is None else now
    relative = re.fullmatch(r"\+(\d+(?:\.\d+)?)([smhd]?)", text.strip())
    if relative:
        return now + float(relative.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[relative.group(2)]
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise JobError(f"{text!r} is not a time: expected an ISO time, epoch seconds or +30s/+5m/+2h") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _finite(value: Any) -> bool:
    """A number that is not NaN nor infinite (ints always are: math.isfinite overflows on huge ones)."""
    return _whole(value) or (isinstance(value, float) and math.isfinite(value))


KEY_KEEP_S = 86400.0  # how long an idempotency key keeps naming its job


def check_idempotency_key(key: Any) -> str | None:
    """A client's idempotency key: any printable text up to 200 characters."""
    if key is None:
        return None
    if not isinstance(key, str) or not 0 < len(key) <= 200 or not key.isprintable():
        raise JobError("an idempotency key is printable text of 1 to 200 characters")
    return key


def key_digest(owner: str | None, key: str) -> str:
    """Where a key is kept: per owner (two API keys may choose the same text), hashed
    so that any text makes a valid node name."""
    return hashlib.sha256(f"{owner or ''}\0{key}".encode()).hexdigest()[:40]


def check_limit(limit: Any) -> int:
    """A type's limit: how many of its runs may hold a slot at once."""
    if not _whole(limit) or not 0 <= limit <= MAX_LIMIT:
        raise JobError(f"a limit is a whole number of jobs from 0 to {MAX_LIMIT:,}, not {limit!r}")
    return limit


def check_job_id(job_id: Any) -> int:
    """An id that may name a job; any other is no job (rather than an overflow in SQLite)."""
    if not _whole(job_id) or not 1 <= job_id <= MAX_JOB_ID:
        raise JobNotFound(f"no job {job_id}")
    return job_id


def check_run_seconds(seconds: Any) -> float:
    """``jobs.maxRunSeconds``: the longest any run may take."""
    if not _finite(seconds) or seconds <= 0:
        raise JobError(f"jobs.maxRunSeconds must be a number of seconds above 0, not {seconds!r}")
    return float(seconds)


def check_priority(priority: int) -> int:
    if not isinstance(priority, int) or isinstance(priority, bool) or not -MAX_PRIORITY <= priority <= MAX_PRIORITY:
        raise JobError(f"priority must be an integer from {-MAX_PRIORITY} to {MAX_PRIORITY}, not {priority!r}")
    return priority


def queue_key(priority: int, due: float, job_id: int, types: Iterable[str]) -> str:
    """A name whose text order is the run order: higher priority first, then
    earlier due time, then lower id (submission order). The job's types follow
    (``~a+b``; neither sign is allowed in a type), so counting who waits for
    what needs the names only."""
    return f"{MAX_PRIORITY - priority:04d}-{int(due * 1000):014d}-{job_id:016d}~{'+'.join(types)}"


def parse_queue_key(name: str) -> tuple[int, float, int]:
    """(priority, due, job id) of a ``queue_key``."""
    pri, due, job_id = name.partition("~")[0].split("-")
    return MAX_PRIORITY - int(pri), int(due) / 1000, int(job_id)


def queue_key_types(name: str) -> list[str]:
    """The types a ``queue_key`` names."""
    return name.partition("~")[2].split("+")


# what a final attempt's error ends with: the job fails at once, whatever attempts remain
FINAL_MARK = " (final: the same script would fail the same way; not retried)"
# statuses of errors worth another try: the upstream may answer in time, let through, or be up again
_RETRIED_4XX = frozenset({408, 425, 429})


def is_final(error: BaseException) -> bool:
    """Would another run of the same job fail the same way? Yes for the script's own
    mistakes and for what an upstream refused (a 4xx other than 408, 425 and 429: a
    syntax error, a missing parameter, an unknown item, a rejected credential): a retry
    cannot make them succeed, and spends the partner API's calls. No for the rest: an
    upstream's 5xx, a timeout, a throttled call, a lost connection, the worker's own
    failure. The runner asks it of a script's error and hands the verdict on in ``JobFailed.final``."""
    if not isinstance(error, QlError):
        return False
    status = error.details.get("upstream_status") or error.status
    return isinstance(status, int) and 400 <= status < 500 and status not in _RETRIED_4XX


def attempt_error(error: BaseException) -> str:
    """What a failed attempt records: the error, cut short if it is long, and, when the run
    found it final (``JobFailed.final``, from ``is_final``), ``FINAL_MARK``, which
    ``finish_attempt`` reads. The backends' own errors are not the script's: never final."""
    text = f"{type(error).__name__}: {error}"
    mark = FINAL_MARK if getattr(error, "final", False) is True else ""
    room = MAX_ERROR_CHARS - len(mark)
    return (text if len(text) <= room else text[: room - 1] + "…") + mark


def oversized_result(result: Any, limit: int = MAX_RESULT_BYTES) -> str | None:
    """Why a result cannot be kept with its job, if it cannot."""
    size = len(json.dumps(result, separators=(",", ":"), default=str).encode())
    return None if size <= limit else too_large(size, limit)


def too_large(size: int, limit: int) -> str:
    return (
        f"ResultTooLarge: the result takes {size:,} bytes; a job keeps at most {limit:,} "
        "(jobs.maxResultBytes; return less, or have the script write it elsewhere)"
    )


def encode_result(result: Any) -> bytes:
    """A result as the database keeps it: ASCII JSON, like every record (a lone surrogate
    stays an escape)."""
    return json.dumps(result, separators=(",", ":"), ensure_ascii=True).encode()


def queue_place(job: Job) -> float:
    """The due time a job was first queued with: a run taken back (its worker lost,
    fenced or stopped) goes back to this place, not to the end of its priority."""
    return max(job.submitted, job.not_before)


def finish_attempt(job: Job, error: str | None, *, cancelled: bool = False) -> None:
    """Close the current attempt; a failed one is retried while attempts remain, unless
    its error is final (``is_final``)."""
    now = time.time()
    if job.attempts:
        job.attempts[-1].ended = now
        job.attempts[-1].error = error
    if error is None:
        return
    if cancelled or len(job.attempts) >= job.max_attempts or error.endswith(FINAL_MARK):
        job.state = CANCELLED if cancelled else FAILED
        job.error = error
        job.ended = now
    else:
        job.state = QUEUED
