"""``GET /ready``: can this process serve what it was configured for? ``/health``
stays liveness (the process answers: do not restart it); readiness asks each
service this process depends on, so a load balancer stops sending it requests
while one is missing, and the operator reads which:

- ``zookeeper``: the job backend's ZooKeeper session (``--zookeeper``) is connected;
- ``archive``: the job archive (PostgreSQL or SQLite) answers a read;
- ``redis``: the shared response cache (``cache.url: redis://…``) answers a PING;
- ``emulator``: the eBay emulator the config points the eBay tables at accepts
  a connection (the workspace's own, or ``--workers``' shared one).

Only what is configured is checked; each check has ``CHECK_SECONDS`` and they run
together, so a scrape of ``/ready`` takes at most that long. An answer names the
services and says what failed in words of ours — never a URL (a Redis or
PostgreSQL URL may hold a password) nor a driver's message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .response import Response, json_response

if TYPE_CHECKING:
    from .gateway import Gateway
    from .request import Request

CHECK_SECONDS = 2.0

Check = Callable[[], Awaitable[None]]  # raises NotReady (or anything) when the service is missing


class NotReady(Exception):
    """A check's failure, in words safe to answer with."""


def checks_of(gateway: Gateway, emulator_base: str | None = None) -> dict[str, Check]:
    """The checks this gateway's configuration calls for (see the module's doc)."""
    checks: dict[str, Check] = {}
    jobs: Any = gateway.jobs
    client = getattr(jobs, "client", None)
    if client is not None and hasattr(client, "state"):  # a kazoo client: the cluster's backend
        checks["zookeeper"] = _zookeeper(client)
    archive = getattr(jobs, "archive", None)
    if archive is not None and hasattr(archive, "get"):
        checks["archive"] = _archive(archive)
    backend = getattr(gateway.workspace.engine.responses, "backend", None)
    if backend is not None and getattr(backend, "name", "") == "redis":
        checks["redis"] = _redis(backend)
    emulator = gateway.workspace.emulator
    base = emulator.base if emulator is not None else emulator_base
    if base:
        checks["emulator"] = _reachable(base)
    return checks


def _zookeeper(client: Any) -> Check:
    async def check() -> None:
        state = str(getattr(client, "state", "")).upper()
        if state != "CONNECTED":
            raise NotReady(f"no ZooKeeper session ({state.lower() or 'unknown'})")

    return check


def _archive(archive: Any) -> Check:
    async def check() -> None:
        try:
            await asyncio.to_thread(archive.get, 0)  # a read of a job no one has: the store answers
        except Exception as error:  # noqa: BLE001 — any failure means not ready; the text is ours
            raise NotReady(f"the job archive does not answer ({type(error).__name__})") from None

    return check


def _redis(backend: Any) -> Check:
    async def check() -> None:
        try:
            await backend._client.ping()
        except Exception as error:  # noqa: BLE001 — the driver's text may quote the URL
            raise NotReady(f"Redis does not answer ({type(error).__name__})") from None

    return check


def _reachable(base: str) -> Check:
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or (443 if parts.scheme == "https" else 80)

    async def check() -> None:
        try:
            _, writer = await asyncio.open_connection(host, port)
        except OSError as error:
            raise NotReady(f"the eBay emulator refuses connections ({type(error).__name__})") from None
        writer.close()

    return check


async def _run(name: str, check: Check) -> tuple[str, str | None]:
    try:
        await asyncio.wait_for(check(), CHECK_SECONDS)
    except NotReady as error:
        return name, str(error)
    except TimeoutError:
        return name, f"no answer in {CHECK_SECONDS:g} s"
    except Exception as error:  # noqa: BLE001 — a check that fails in a way of its own is still a failure
        return name, f"check failed ({type(error).__name__})"
    return name, None


async def handle_ready(request: Request) -> Response:
    """200 ``{"ready": true, "checks": {name: "ok"}}``, or 503 in the one error shape
    with ``missing``: the names of the services that failed, and what each check found."""
    checks = request.gateway.readiness
    results = await asyncio.gather(*(_run(name, check) for name, check in checks.items()))
    missing = [name for name, problem in results if problem is not None]
    checked = {name: problem or "ok" for name, problem in results}
    if missing:  # the one error shape (err, type, status first), with what a probe reads
        body = {
            "err": "not ready: " + ", ".join(missing),
            "type": "NotReady",
            "ready": False,
            "missing": missing,
            "checks": checked,
        }
        return json_response(body, status=503)
    return json_response({"ready": True, "checks": checked})
