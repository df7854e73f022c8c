"""The engine API (spec §16): tables, routes and config loaded once; scripts
compiled once per text (an LRU keyed by the text and its base directory) and
run with a pooled HTTP client.

    engine = Engine(tables="tables", config="config/dev.json")
    result = await engine.execute('return select * from ebay.finding.findItemsByKeywords where keywords = "camera"')
    result.value, result.headers, result.diagnostics
"""

from __future__ import annotations

import hashlib
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

from ..config import Config
from ..errors import QlError
from ..http.client import HttpClient
from ..lang.parser import parse
from ..routes import Route, load_routes_dir
from ..tables.model import Table, compile_table
from ..tables.registry import LoadProblem, TableRegistry, load_tables_dir
from .diagnostics import Diagnostics
from .planner import Plan, compile_script
from .run import RequestInfo, Run


@dataclass
class Compiled:
    plan: Plan
    inline: tuple[Table, ...]


@dataclass
class Result:
    value: Any
    headers: dict[str, str]
    diagnostics: Diagnostics
    warnings: list[str]


class Engine:
    def __init__(self, *, tables: str | Path | None = None, routes: str | Path | None = None,
                 config: str | Path | dict | Config | None = None, cache_size: int = 512):
        if isinstance(config, Config):
            self.config = config
        elif isinstance(config, dict):
            self.config = Config.from_dict(config)
        else:
            self.config = Config.load(config)
        self.tables_dir = Path(tables) if tables else None
        self.tables, self.table_problems = load_tables_dir(self.tables_dir, self.config.data,
                                                           patch_paths=self.config.settings.patch_paths)
        self.routes: list[Route]
        self.routes, self.route_problems = load_routes_dir(routes)
        self.http = HttpClient(max_response_bytes=self.config.settings.max_response_bytes)
        self._cache: OrderedDict[tuple, Compiled] = OrderedDict()
        self._cache_size = cache_size

    @property
    def problems(self) -> list[LoadProblem]:
        return self.table_problems + self.route_problems

    def compile(self, script: str, *, base_dir: Path | None = None, origin: str | None = None) -> Compiled:
        """Parse and plan once per (text, base dir); later calls are a dict lookup."""
        key = (hashlib.blake2b(script.encode("utf-8"), digest_size=16).digest(), base_dir)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        plan = compile_script(parse(script, origin=origin))
        search = [d for d in (base_dir, Path.cwd(), self.tables_dir) if d is not None]
        inline = []
        for create in plan.inline_tables:
            try:
                inline.append(compile_table(create, self.config.data, search,
                                            patch_paths=self.config.settings.patch_paths))
            except QlError as e:
                e.at(create.pos.line, create.text[:200])
                raise
        compiled = Compiled(plan, tuple(inline))
        self._cache[key] = compiled
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return compiled

    async def execute(self, script: str, *, context: dict[str, Any] | None = None,
                      request: RequestInfo | None = None, base_dir: str | Path | None = None,
                      origin: str | None = None, request_id: str | None = None,
                      call_gate: Callable[[str], Awaitable[None]] | None = None) -> Result:
        """Run a script. Raises QlError (with ``status``) on failure. ``call_gate(table)``
        is awaited before every upstream call (the job backend's call-rate limits)."""
        base = Path(base_dir) if base_dir is not None else None
        compiled = self.compile(script, base_dir=base, origin=origin)
        return await self.run_compiled(compiled, context=context, request=request, base_dir=base,
                                       request_id=request_id, call_gate=call_gate)

    async def run_compiled(self, compiled: Compiled, *, context: dict[str, Any] | None = None,
                           request: RequestInfo | None = None, base_dir: Path | None = None,
                           request_id: str | None = None,
                           upstream_check: Callable[[str], None] | None = None,
                           call_gate: Callable[[str], Awaitable[None]] | None = None) -> Result:
        """Run a compiled script; ``upstream_check`` may refuse URLs (gateway policy)."""
        tables = TableRegistry(compiled.inline, parent=self.tables) if compiled.inline else self.tables
        run = Run(self, compiled.plan, tables, context=context, request=request, base_dir=base_dir,
                  request_id=request_id or None, upstream_check=upstream_check, call_gate=call_gate)
        try:
            value, headers = await run.execute()
        except QlError as error:
            error.message = self.config.secrets.mask(error.message)
            error.diagnostics = run.diagnostics  # type: ignore[attr-defined]
            error.warnings = [self.config.secrets.mask(w) for w in run.warnings]  # type: ignore[attr-defined]
            raise
        return Result(value, headers, run.diagnostics, run.warnings)

    async def close(self) -> None:
        await self.http.close()

    async def __aenter__(self) -> "Engine":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()


def new_request_id() -> str:
    return str(uuid.uuid4())
