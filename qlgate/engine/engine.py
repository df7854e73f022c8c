"""The engine API (spec §16): tables, routes and config loaded once; scripts
compiled once per text (an LRU keyed by the text and its base directory) and
run with a pooled HTTP client.

    engine = Engine(tables="tables", config="config/dev.json")
    result = await engine.execute('return select * from ebay.finding.findItemsByKeywords where keywords = "camera"')
    result.value, result.headers, result.diagnostics
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from random import getrandbits
from typing import TYPE_CHECKING, Any

from ..cache.responses import ResponseCache
from ..config import Config
from ..diagnostics import Diagnostics
from ..errors import QlError
from ..lang import ast
from ..lang.lift import lift
from ..lang.parser import parse
from ..lang.walk import walk
from ..limits.api_types import ApiTypes
from ..limits.gate import CallLimits
from ..oauth.manager import TokenManager
from ..request_info import RequestInfo
from ..routes import Route, load_routes_dir
from ..tables import lifecycle
from ..tables.files import CodeDirs
from ..tables.index import open_tables
from ..tables.model import Table, compile_table
from ..tables.registry import LoadProblem, TableRegistry
from ..trust import Trust
from .backoff import BackoffBoard, BackoffSettings
from .options import DEFAULT, RunOptions
from .plan_cache import SharedPlans
from .planner import Plan, compile_script
from .run import Run
from .script_checks import check_credentials, check_param_names, declared_lifecycle, load_named, shares_safely
from .warm import call_path_imported, import_call_path

if TYPE_CHECKING:
    from ..http.client import HttpClient
    from .call_path import CallPaths

_CALLS = (ast.Select, ast.Insert, ast.Update, ast.Delete)
MAX_CACHED_CHARS = 2_000_000  # characters of script text whose compilations are kept


@dataclass
class Compiled:
    plan: Plan
    inline: tuple[Table, ...]
    trust: Trust = field(default_factory=Trust.deployer)
    writes: bool = False  # may change something upstream (the gateway runs those on POST only)
    # may its runs share decoded answers with other runs (``script_checks.shares_safely``)?
    shareable: bool = False
    # the tables it calls that declare ``deprecated``/``retired``: checked at each run's start
    lifecycle: tuple[Table, ...] = ()


@dataclass
class Result:
    value: Any
    headers: dict[str, str]
    diagnostics: Diagnostics
    warnings: list[str]


class Engine:
    def __init__(
        self,
        *,
        tables: str | Path | None = None,
        routes: str | Path | None = None,
        config: str | Path | dict | Config | None = None,
        cache_size: int = 512,
        lazy_tables: bool = False,
        limits: CallLimits | None = None,
    ):
        """``lazy_tables``: compile a table when a script first names it, through the
        on-disk table index (``tables/index.py``; ``qlgate run``), instead of all now.
        ``limits``: the partner APIs' limits every upstream call counts against
        (``qlgate.limits.open``; opened, and closed, by whoever opens the engine: serve,
        run, a worker); None: no limits."""
        if isinstance(config, Config):
            self.config = config
        elif isinstance(config, dict):
            self.config = Config.from_dict(config)
        else:
            self.config = Config.load(config)
        self.tables_dir = Path(tables) if tables else None
        self.routes_dir = Path(routes) if routes else None
        settings = self.config.settings
        self.tables, self.table_problems = open_tables(
            self.tables_dir, self.config.data, patch_paths=settings.patch_paths, lazy=lazy_tables
        )
        self._routes_given = routes
        self._routes: tuple[list[Route], list[LoadProblem]] | None = None
        if not lazy_tables:
            self._routes = load_routes_dir(routes)
        # where the deployer's scripts find the files they name, after their own directory
        self.deployment_dirs = CodeDirs.of(
            [self.tables_dir], roots=[self.routes_dir, *settings.patch_paths, *settings.udf_paths]
        )
        self._http: HttpClient | None = None  # made by the first upstream call (``http``)
        # the OAuth2 tokens of config ``auth`` (``using auth 'NAME'``): nothing is read or
        # fetched until a table or a patch asks for one
        self.credentials = TokenManager(self.config, lambda: self.http)
        # answers of tables and statements with ``expires``, and the calls in flight that
        # identical reads share (config ``cache``; in-process unless it names Redis)
        view = self.config.view  # the settings, typed (config_values)
        self.responses = ResponseCache.from_config(view)
        # successive failures per table, and the back-off they call for (config ``backoff``)
        self.backoff = BackoffBoard(BackoffSettings.from_config(view))
        # the partner APIs' limits on every call (qlgate/limits), shared with the other
        # processes through the store their opener chose
        self.api_types = ApiTypes.from_config(view)
        self._limits = limits
        self._call_paths: CallPaths | None = None  # composed by the first upstream call (``call_paths``)
        self._cache: OrderedDict[tuple, tuple[Compiled | QlError, int]] = OrderedDict()  # → (it, characters)
        self._cache_chars = 0
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self._shapes: SharedPlans[Compiled] = SharedPlans(cache_size, MAX_CACHED_CHARS)  # plan_cache.py

    @property
    def limits(self) -> CallLimits | None:
        """The limits the engine was opened with, for good: whoever opens an engine that
        counts in the job backend's store opens the store first (``jobs.factory.open_jobs``)."""
        return self._limits

    @property
    def http(self) -> HttpClient:
        """The pooled HTTP client of every upstream call, made (and the HTTP library
        imported) when the first call needs it: a script that calls nothing starts
        without it."""
        if self._http is None:
            from ..http.client import HttpClient

            settings, secrets = self.config.settings, self.config.secrets
            # a redirect to another origin carries no credential and no header holding a secret
            self._http = HttpClient(
                max_response_bytes=settings.max_response_bytes, secrets=lambda: secrets.values, proxy=settings.proxy
            )
        return self._http

    @property
    def call_paths(self) -> CallPaths:
        """The call paths of the engine's upstream calls (``call_path.py``), composed by
        the first call (and the HTTP machinery imported then, not before)."""
        if self._call_paths is None:
            from .call_path import CallPaths

            self._call_paths = CallPaths(lambda: self.http, self.responses, self.backoff, self.limits, self.api_types)
        return self._call_paths

    @property
    def routes(self) -> list[Route]:
        """The routes tree's routes (loaded now, or when first asked for with ``lazy_tables``)."""
        if self._routes is None:
            self._routes = load_routes_dir(self._routes_given)
        return self._routes[0]

    @property
    def route_problems(self) -> list[LoadProblem]:
        return self._routes[1] if self._routes is not None else []

    @property
    def problems(self) -> list[LoadProblem]:
        """What failed to load: every table and route file, or with ``lazy_tables`` the
        files that do not parse and those of the tables and routes used so far."""
        return self.table_problems + self.route_problems

    def cached(self, script: str, *, trust: Trust | None = None, base_dir: Path | None = None) -> bool:
        """Is this script's compilation (or its failure) known, or its shape's plan? Then
        ``compile`` is a lookup, or a build from the shape's plan (``plan_cache``): cheap."""
        trust = trust or Trust.deployer()
        with self._cache_lock:
            if self._key(script, trust, base_dir) in self._cache:
                return True
        lifted = lift(script)
        return lifted is not None and self._shapes.knows((lifted.key, trust, base_dir))

    def compile(
        self, script: str, *, trust: Trust | None = None, base_dir: Path | None = None, origin: str | None = None
    ) -> Compiled:
        """Parse, check against ``trust`` (the deployer's, unless said) and plan, once
        per (text, trust, base dir): later calls, failed ones too, are a dict lookup."""
        trust = trust or Trust.deployer()
        key = self._key(script, trust, base_dir)
        with self._cache_lock:  # the gateway compiles callers' scripts on a thread of its own
            entry = self._cache.get(key)
            if entry is not None:
                self._cache.move_to_end(key)
        if entry is None:
            try:
                entry = (self._compile(script, trust, base_dir, origin), len(script))
            except QlError as error:
                entry = (error, 0)
            with self._cache_lock:
                if key not in self._cache:
                    self._cache[key] = entry
                    self._cache_chars += entry[1]
                # bounded by count and by text: a compiled script takes some fifty times its
                # text in memory, and 512 scripts of 64 KB would be gigabytes
                while len(self._cache) > self._cache_size or self._cache_chars > MAX_CACHED_CHARS:
                    _, (_, chars) = self._cache.popitem(last=False)
                    self._cache_chars -= chars
        cached = entry[0]
        if isinstance(cached, QlError):
            raise _fresh(cached)
        return cached

    @staticmethod
    def _key(script: str, trust: Trust, base_dir: Path | None) -> tuple:
        return hashlib.blake2b(script.encode("utf-8", "surrogatepass"), digest_size=16).digest(), trust, base_dir

    def _compile(self, script: str, trust: Trust, base_dir: Path | None, origin: str | None) -> Compiled:
        """A script's compilation, from its shape's when one was compiled (``plan_cache``)."""
        lifted = lift(script)
        shape = (lifted.key, trust, base_dir) if lifted is not None else None
        shared = self._shapes.compiled(shape, lifted, script) if shape and lifted else None
        if shared is not None:
            return shared
        compiled, parsed = self._compile_new(script, trust, base_dir, origin)
        if shape and lifted:
            self._shapes.learn(shape, lifted, script, parsed, compiled, parse)
        return compiled

    def _compile_new(
        self, script: str, trust: Trust, base_dir: Path | None, origin: str | None
    ) -> tuple[Compiled, ast.Script]:
        parsed = parse(script, origin=origin)
        if not call_path_imported() and any(isinstance(node, _CALLS) for node in walk(parsed)):
            import_call_path()  # before the run's clock starts (warm.py)
        if self.tables.lazy:
            load_named(self.tables, parsed)
        trust.check(parsed)
        if trust.credentials is not None:
            check_credentials(self.tables, parsed, trust)
        plan = compile_script(parsed)
        inline = []
        for create in plan.inline_tables:
            try:
                if trust.is_caller:  # no files to find (the check refused them); public config only
                    table = compile_table(
                        create, trust.config_view(self.config.data, self.config.secrets), CodeDirs(), view_only=True
                    )
                else:
                    table = compile_table(
                        create, self.config.data, self.script_dirs(base_dir, self.config.settings.patch_paths)
                    )
            except QlError as e:
                e.at(create.pos.line, create.text[:200])
                raise
            inline.append(table)
        unread = check_param_names(self._registry(tuple(inline)), parsed, plan.assigned)
        if unread:
            plan.warnings = (*plan.warnings, *unread)
        # a write: an insert, update or delete, or a table of the script's own that sends
        # anything but GET (its select may well change something upstream)
        writes = any(isinstance(node, (ast.Insert, ast.Update, ast.Delete)) for node in walk(parsed)) or any(
            m.method != "get" for table in inline for m in table.mappings.values()
        )
        registry = self._registry(tuple(inline))
        return Compiled(
            plan, tuple(inline), trust, writes, shares_safely(registry, parsed), declared_lifecycle(registry, parsed)
        ), parsed

    def _registry(self, inline: tuple[Table, ...]) -> TableRegistry:
        """The tables a script sees: its own inline ones before the engine's."""
        return TableRegistry(inline, parent=self.tables) if inline else self.tables

    def script_dirs(self, base_dir: Path | None, extra: list[Path]) -> CodeDirs:
        """Where a deployer's script finds the files it names: its own directory (the
        working directory when it has none), the tables tree, then ``extra``."""
        trees = self.deployment_dirs
        return CodeDirs.of([base_dir or Path.cwd()]).plus(trees.search, trees.roots).plus(extra)

    async def execute(
        self,
        script: str,
        *,
        context: dict[str, Any] | None = None,
        request: RequestInfo | None = None,
        base_dir: str | Path | None = None,
        origin: str | None = None,
        request_id: str | None = None,
        trust: Trust | None = None,
        call_gate: Callable[[str], Awaitable[None]] | None = None,
    ) -> Result:
        """Run a script — the deployer's own unless ``trust`` says otherwise. Raises
        QlError (with ``status``) on failure. ``call_gate(table)`` is awaited before
        every upstream call (the job backend's call-rate limits)."""
        base = Path(base_dir) if base_dir is not None else None
        compiled = self.compile(script, trust=trust, base_dir=base, origin=origin)
        options = RunOptions(
            context=context, request=request, base_dir=base, request_id=request_id, call_gate=call_gate
        )
        return await self.run_compiled(compiled, options)

    async def run_compiled(self, compiled: Compiled, options: RunOptions = DEFAULT, /, **changes: Any) -> Result:
        """Run a compiled script under the trust it was compiled with, as ``options`` say
        (``engine/options.py``), with ``changes`` to them by name
        (``run_compiled(compiled, shares_answers=True)``). Sharing decoded answers is
        only for scripts that hand no value to deployer code (``Compiled.shareable``)."""
        options = options.but(**changes)
        if options.shares_answers and not compiled.shareable:
            options = options.but(shares_answers=False)
        warned = lifecycle.check(compiled.lifecycle) if compiled.lifecycle else None  # a retired table: nothing sent
        tables = self._registry(compiled.inline)
        run = Run(self, compiled.plan, tables, options, compiled.trust)
        if warned:
            run.warnings.extend(warned)
        try:
            value, headers = await run.execute()
        except QlError as error:
            error.message = self.config.secrets.mask(error.message)
            error.diagnostics = run.diagnostics
            error.warnings = [self.config.secrets.mask(w) for w in run.warnings]
            raise
        return Result(value, headers, run.diagnostics, run.warnings)

    async def access_token(self, name: str) -> str:
        """An OAuth2 access token for the config ``auth`` entry ``name``, as tables with
        ``using auth 'NAME'`` send it (cached, shared, fetched once for all who wait).
        It is masked in everything the engine shows; keep it out of what you show."""
        return await self.credentials.access_token(name)

    async def close(self) -> None:
        if self._limits is not None:
            self._limits.stop_background()  # what its store holds goes back with close_limits
        await self.responses.close()
        if self._http is not None:
            await self._http.close()

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()


def _fresh(error: QlError) -> QlError:
    """A copy of a cached compile error to raise (callers add positions and
    diagnostics to what they catch; the cached one stays as it was)."""
    fresh = error.__class__.__new__(error.__class__)
    fresh.__dict__.update(error.__dict__)
    fresh.details = dict(error.details)
    fresh.args = error.args
    return fresh


def new_request_id() -> str:
    """A fresh request id, in UUID version 4's form. From ``random`` (reseeded in each
    forked worker), not ``uuid4``'s ``os.urandom``: a system call per request, for an
    id that only names a request in logs and headers and opens nothing."""
    bits = (getrandbits(128) & _CLEAR_VERSION_VARIANT) | _VERSION_4_VARIANT
    text = f"{bits:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


_CLEAR_VERSION_VARIANT = ~((0xF000 << 64) | (0xC000 << 48))
_VERSION_4_VARIANT = (0x4000 << 64) | (0x8000 << 48)
