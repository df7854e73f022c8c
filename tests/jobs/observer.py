"""The partner API the test jobs call, in a thread of its own: it answers
``/call?type=T&ms=N`` after N ms and records, independently of qlgate, how
many calls of each type were in flight at once — the witness for guarantee 1."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import defaultdict

from aiohttp import web

TABLES = """
create table partner.a.call on select get from "{config.base}/call?type=partner.a&ms={ms}&job={job}"
create table partner.b.call on select get from "{config.base}/call?type=partner.b&ms={ms}&job={job}"
create table partner.c.call on select get from "{config.base}/call?type=partner.c&ms={ms}&job={job}"
create table partner.broken.call on select get from "{config.base}/fail?type=partner.broken&status={status}"
"""


class Observer:
    def __init__(self) -> None:
        self.in_flight: dict[str, int] = defaultdict(int)
        self.max_in_flight: dict[str, int] = defaultdict(int)
        self.calls: dict[str, int] = defaultdict(int)
        self.started: list[tuple[float, str, str]] = []  # (time, type, job)
        # every call: [start, end (None while in flight), type, the run that sent it ("job-<id>-<run>")]
        self.log: list[list] = []
        self.lock = threading.Lock()
        self.loop = asyncio.new_event_loop()
        self.base = ""

    async def call(self, request: web.Request) -> web.Response:
        kind, job = request.query["type"], request.query.get("job", "")
        entry = [time.time(), None, kind, request.headers.get("request-id", "")]
        with self.lock:
            self.in_flight[kind] += 1
            self.calls[kind] += 1
            self.max_in_flight[kind] = max(self.max_in_flight[kind], self.in_flight[kind])
            self.started.append((entry[0], kind, job))
            self.log.append(entry)
        try:
            await asyncio.sleep(int(request.query.get("ms") or 0) / 1000)
        finally:
            with self.lock:
                self.in_flight[kind] -= 1
                entry[1] = time.time()
        return web.json_response({"type": kind, "job": job})

    def calls_of(self, job_id: int, run: int) -> list[list]:
        """The calls one run of a job sent (the engine names the run in ``request-id``)."""
        with self.lock:
            return [e for e in self.log if e[3] == f"job-{job_id}-{run}"]

    def in_flight_at(self, kind: str, moment: float) -> int:
        with self.lock:
            return sum(
                1 for start, end, k, _ in self.log if k == kind and start <= moment and (end is None or end > moment)
            )

    async def fail(self, request: web.Request) -> web.Response:
        status = int(request.query.get("status") or 503)  # 503 unless the job asks for another
        return web.json_response({"error": "partner is down" if status >= 500 else "refused"}, status=status)

    def start(self) -> Observer:
        ready = threading.Event()

        async def serve() -> None:
            app = web.Application()
            app.router.add_get("/call", self.call)
            app.router.add_get("/fail", self.fail)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            self.base = f"http://127.0.0.1:{runner.addresses[0][1]}"
            self._runner = runner
            ready.set()

        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(serve(), self.loop)
        assert ready.wait(10)
        return self

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
