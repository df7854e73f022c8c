"""One execution of a compiled plan (spec §7).

Every statement is a task that starts at once and waits only for the
variables it refers to (one future per variable), so independent statements
run concurrently and dependants start the moment their inputs are known.
Writes to tables additionally wait for the previous write.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable

from ..errors import CompileError, QlError, ScriptBudgetExceeded, StatementError, UpstreamTimeout
from ..http.client import HttpRequest, HttpResponse
from ..lang import ast
from ..lang.templates import Template, interpolate, interpolate_text, parse_template
from ..tables.files import CodeDirs
from ..tables.registry import TableRegistry
from ..trust import Trust
from ..values import MISSING, is_nullish, truthy
from .diagnostics import CallRecord, Diagnostics
from . import statements

if TYPE_CHECKING:
    from .engine import Engine
    from .planner import Plan

log = logging.getLogger("qlgate.engine")


@dataclass
class RequestInfo:
    """The incoming gateway request a script runs for (spec §5.2 layers 4–6)."""
    query: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, Any] = field(default_factory=dict)
    connection: dict[str, Any] = field(default_factory=dict)
    route_params: dict[str, Any] = field(default_factory=dict)

    @property
    def remote_address(self) -> Any:
        return self.connection.get("remoteAddress")


class Run:
    def __init__(self, engine: "Engine", plan: "Plan", tables: TableRegistry, *,
                 context: dict[str, Any] | None = None, request: RequestInfo | None = None,
                 base_dir: Path | None = None, request_id: str | None = None, trust: Trust | None = None,
                 call_gate: Callable[[str], Awaitable[None]] | None = None,
                 values_only: frozenset[str] = frozenset(), call_deadline: float | None = None):
        self.engine = engine
        self.plan = plan
        self.tables = tables
        self.config = engine.config
        self.settings = engine.config.settings
        self.secrets = engine.config.secrets
        self.request = request
        self.request_id = request_id
        self.trust = trust or Trust.deployer()
        # a caller's calls are checked against the host allow-list (redirects too)
        self.upstream_check = self.trust.check_url if self.trust.allowed_hosts is not None else None
        self._script_config: dict[str, Any] | None = None
        self.call_gate = call_gate
        self.call_deadline = call_deadline   # seconds one upstream call may take in all, or None
        self._base_dir = base_dir
        self.context = dict(context or {})
        self.values_only = values_only        # context names that are data, never a table
        self.vars: dict[str, Any] = {k: v for k, v in self.context.items() if v is not MISSING}
        loop = asyncio.get_running_loop()
        self.ready: dict[str, asyncio.Future] = {name: loop.create_future() for name in plan.assigned}
        self.write_done: dict[int, asyncio.Event] = {i: asyncio.Event() for i in plan.write_lines}
        self.values: dict[int, Any] = {}
        self.diagnostics = Diagnostics()
        self.warnings: list[str] = list(plan.warnings)
        self._inflight: dict[tuple, asyncio.Future] = {}
        self.spent = 0                                          # against settings.script_budget
        self._sizes: dict[int, tuple[Any, int]] = {}           # id → (container, its size): Run.size

    # ------------------------------------------------------------------ scope
    def lookup(self, name: str) -> Any:
        """§5.2: script variables, then request query/headers/connection, then config.
        ``config`` is the config (the view the trust allows) unless the script itself
        assigns that name (ql.io allowed it): a request's parameter, header or body
        member, or a route binding, cannot stand in for it."""
        if name == "config":
            if "config" in self.plan.assigned:
                value = self.vars.get(name, MISSING)
                if value is not MISSING:
                    return value
            if self._script_config is None:
                self._script_config = self.trust.config_view(self.config.data, self.secrets)
            return self._script_config
        value = self.vars.get(name, MISSING)
        if value is not MISSING:
            return value
        req = self.request
        if req is not None:
            for layer in (req.query, req.headers, req.connection):
                value = layer.get(name, MISSING)
                if value is not MISSING:
                    return value
        return MISSING

    def module_dirs(self, extra: list[Path]) -> CodeDirs:
        """Where ``require()`` finds modules: beside the script, in the deployment's trees."""
        return self.engine.script_dirs(self._base_dir, extra)

    def is_variable(self, name: str) -> bool:
        """Does ``name`` in ``from``/``into`` or a bare path operand stand for a variable
        (else a table, or literal text)? Names the script assigns and its declared
        inputs do; members of a request body the route did not declare do not, or a
        caller could replace a table the route reads with data of their own."""
        return name in self.plan.assigned or (name in self.context and name not in self.values_only)

    def readonly_vars(self) -> MappingProxyType:
        return MappingProxyType(self.vars)

    # ------------------------------------------------------------------ what a run may build
    def spend(self, units: int, what: str) -> None:
        """Count work a script can multiply at will — text it interpolates, values it
        places in literals, rows its in-memory operations compare — against config
        ``scriptBudget``. Twenty lines of ``a1 = "{a0}{a0}"`` would otherwise build
        half a gigabyte on the event loop."""
        self.spent += units
        if self.spent > self.settings.script_budget:
            raise ScriptBudgetExceeded(
                f"the script builds more than {self.settings.script_budget:,} units of work ({what}); "
                "the limit is config scriptBudget")

    def note_size(self, value: Any, size: int) -> None:
        """Record what a value weighs when it is known cheaply (an upstream answer: its
        bytes), so placing it in a literal costs a lookup, not a walk."""
        if isinstance(value, (dict, list)):
            self._sizes[id(value)] = (value, size)

    def size(self, value: Any) -> int:
        """What a value adds to an answer it is placed in: text its length, a container
        the sum of what it holds, shared parts counted as often as they appear (what
        its JSON would weigh). Each container is measured once per run (kept alive, so
        its id stays its own); measuring counts as work too."""
        if isinstance(value, str):
            return len(value)
        if not isinstance(value, (dict, list)):
            return 1
        sizes = self._sizes
        known = sizes.get(id(value))
        if known is not None:
            return known[1]
        stack: list[tuple[Any, bool]] = [(value, False)]
        entered: set[int] = set()          # a patch or UDF could hand back a cycle
        while stack:
            node, measured = stack.pop()
            if id(node) in sizes:
                continue
            children = node.values() if isinstance(node, dict) else node
            if not measured:
                if id(node) in entered:
                    continue
                entered.add(id(node))
                stack.append((node, True))
                stack.extend((c, False) for c in children
                             if isinstance(c, (dict, list)) and id(c) not in sizes)
                continue
            total = 1
            for child in children:
                if isinstance(child, (dict, list)):
                    known = sizes.get(id(child))
                    total += known[1] if known is not None else 1
                else:
                    total += len(child) if isinstance(child, str) else 1
            sizes[id(node)] = (node, total)
        self.spend(len(entered), "measuring a value")
        return sizes[id(value)][1]

    def fill(self, value: Any) -> Any:
        """Interpolate every string of a JSON literal (§4.1). A literal that places a
        value in itself many times (``a2 = ["{a1}", "{a1}"]``) multiplies its size: that is
        counted, so doubling it twenty times fails early instead of filling memory."""
        if isinstance(value, Template):       # the literal is one string: nothing is nested
            return self.interpolate(value)
        filled, size = self._fill(value)
        self.spend(size, "a JSON literal")
        self.note_size(filled, size)
        return filled

    def _fill(self, value: Any) -> tuple[Any, int]:
        if isinstance(value, Template):
            filled = interpolate(value, self.lookup)
            return filled, self.size(filled)
        if isinstance(value, dict):
            out, total = {}, 1
            for k, v in value.items():
                filled, size = self._fill(v)
                if filled is not MISSING:
                    out[k] = filled
                    total += size
            return out, total
        if isinstance(value, list):
            items, total = [], 1
            for v in value:
                filled, size = self._fill(v)
                items.append(None if filled is MISSING else filled)
                total += size
            return items, total
        return value, 1

    def text(self, template: Template) -> str:
        built = interpolate_text(template, self.lookup)
        if template.tokens:
            self.spend(len(built), "interpolated text")
        return built

    def interpolate(self, template: Template) -> Any:
        """Quoted text of a statement, filled: whole tokens keep their type, text is counted."""
        filled = interpolate(template, self.lookup)
        if isinstance(filled, str) and template.tokens and template.whole_token is None:
            self.spend(len(filled), "interpolated text")
        return filled

    def assign(self, name: str, value: Any) -> None:
        if value is not MISSING:
            self.vars[name] = value
        future = self.ready.get(name)
        if future is not None and not future.done():
            future.set_result(value)

    async def wait(self, names: Iterable[str]) -> None:
        for name in names:
            future = self.ready.get(name)
            if future is not None and not future.done():
                await future

    def warn(self, message: str) -> None:
        self.warnings.append(message)
        log.warning("%s", self.secrets.mask(message))

    # ------------------------------------------------------------------ HTTP
    async def send(self, request: HttpRequest, *, coalesce: bool, table: str, occurrence: int = 0) -> HttpResponse:
        """Send through the engine's client; identical reads in one run are made once."""
        if not coalesce:
            return await self._send_recorded(request, table)
        key = (request.method, request.url, tuple(sorted(request.headers.items())), request.body, occurrence)
        future = self._inflight.get(key)
        if future is not None:
            self.diagnostics.coalesced += 1
            return await asyncio.shield(future)
        future = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            response = await self._send_recorded(request, table)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as e:
            if not future.done():
                future.set_exception(e)
                future.exception()  # mark retrieved: waiters re-raise it
            raise
        future.set_result(response)
        return response

    async def _send_recorded(self, request: HttpRequest, table: str) -> HttpResponse:
        if self.upstream_check is not None:
            request.check_url = self.upstream_check
        if self.call_gate is not None:
            await self.call_gate(table)      # waiting for a call token is not call time
        started = time.perf_counter()
        record = CallRecord(table=table, method=request.method.upper(), url=self.secrets.mask(request.url),
                            start=started - self.diagnostics.started)
        self.diagnostics.calls.append(record)
        try:
            if self.call_deadline is None:
                response = await self.engine.http.send(request)
            else:
                response = await self._send_within(request, self.call_deadline)
        except QlError as e:
            record.error = self.secrets.mask(e.message)
            record.end = time.perf_counter() - self.diagnostics.started
            raise
        record.status = response.status
        record.bytes = response.wire_bytes
        record.end = time.perf_counter() - self.diagnostics.started
        record.attempts = response.attempts
        return response

    async def _send_within(self, request: HttpRequest, seconds: float) -> HttpResponse:
        """A call that ends within ``seconds`` whatever the upstream does (the HTTP
        client's timeout is per read: a server dripping bytes never trips it)."""
        deadline = asyncio.timeout(seconds)
        try:
            async with deadline:
                return await self.engine.http.send(request)
        except TimeoutError:
            if deadline.expired():
                raise UpstreamTimeout(f"the call took longer than its deadline of {seconds:g} s: "
                                      f"{request.method.upper()} {self.secrets.mask(request.url)}") from None
            raise

    # ------------------------------------------------------------------ execution
    async def execute(self) -> tuple[Any, dict[str, str]]:
        plan = self.plan
        for ref in plan.returned_refs:
            if ref.name not in plan.assigned and ref.name not in self.context:
                raise CompileError(f"unresolved symbol '{ref.name}'", line=ref.pos.line, column=ref.pos.column)
        try:
            async with asyncio.TaskGroup() as group:
                for item in plan.script.items:
                    group.create_task(self.run_item(item))
                ret_task = group.create_task(self.run_return()) if plan.script.ret else None
        except BaseExceptionGroup as group_error:
            raise _first_error(group_error) from None
        finally:
            self.diagnostics.finish()
        if ret_task is not None:
            value = ret_task.result()
        elif plan.final_item is None:
            value = {}
        elif isinstance(plan.final_item, ast.Line):
            value = self.values.get(id(plan.final_item), MISSING)
        else:
            value = None
        return value, self.response_headers()

    async def run_items(self, items: tuple) -> None:
        if not items:
            return
        if len(items) == 1:
            await self.run_item(items[0])
            return
        async with asyncio.TaskGroup() as group:
            for item in items:
                group.create_task(self.run_item(item))

    async def run_item(self, item: Any) -> None:
        if isinstance(item, ast.Line):
            await self.run_line(item)
        elif isinstance(item, ast.IfBlock):
            await self.run_if(item)
        elif isinstance(item, ast.TryBlock):
            await self.run_try(item)
        elif isinstance(item, ast.Throw):
            if item.name not in self.vars:
                self.assign(item.name, item.name)

    async def run_line(self, line: ast.Line) -> None:
        try:
            previous = self.plan.write_after.get(id(line))
            if previous is not None:
                await self.write_done[previous].wait()
            value = await self.evaluate_choices(line.choices, line.target)
            self.values[id(line)] = value
            if line.target:
                self.assign(line.target, value)
        finally:
            done = self.write_done.get(id(line))
            if done is not None:
                done.set()

    async def run_return(self) -> Any:
        ret = self.plan.script.ret
        previous = self.plan.write_after.get(id(ret))
        if previous is not None:
            await self.write_done[previous].wait()
        return await self.evaluate_choices(ret.choices, None)

    async def evaluate_choices(self, choices: tuple, target: str | None) -> Any:
        """A fallback chain (§7.5): the first alternative that succeeds with a value."""
        last = len(choices) - 1
        for index, choice in enumerate(choices):
            await self.wait(self.plan.deps.get(id(choice), ()))
            try:
                value = await statements.evaluate(self, choice, target)
            except QlError as error:
                pos = getattr(choice, "pos", None)
                error.at(pos.line if pos else None, self.secrets.mask(getattr(choice, "text", "") or "") or None)
                if index == last:
                    raise
                self.warn(f"line {error.line}: {error.message}; trying the fallback")
                continue
            if index < last and is_nullish(value):
                continue
            return value
        return MISSING

    def _skip(self, items: tuple | None) -> None:
        """A branch that will not run: its variables become null, its writes are done."""
        for item in items or ():
            if isinstance(item, ast.Line):
                if item.target and item.target not in self.vars:
                    self.assign(item.target, None)
                done = self.write_done.get(id(item))
                if done is not None:
                    done.set()
            elif isinstance(item, ast.Throw):
                if item.name not in self.vars:
                    self.assign(item.name, None)
            elif isinstance(item, ast.IfBlock):
                self._skip(item.then)
                self._skip(item.orelse)
            elif isinstance(item, ast.TryBlock):
                self._skip(item.body)
                for c in item.catches:
                    self._skip(c.body)
                self._skip(item.final)

    def condition(self, cond: ast.Cond) -> bool:
        if isinstance(cond, ast.CondVar):
            return truthy(self.lookup(cond.name))
        if isinstance(cond, ast.CondNot):
            return not self.condition(cond.operand)
        if isinstance(cond, ast.CondAnd):
            return all(self.condition(c) for c in cond.operands)
        return any(self.condition(c) for c in cond.operands)

    async def run_if(self, block: ast.IfBlock) -> None:
        await self.wait(self.plan.deps.get(id(block), ()))
        taken = self.condition(block.cond)
        chosen, other = (block.then, block.orelse) if taken else (block.orelse or (), block.then)
        chosen_vars = self.plan.block_vars.get(id(chosen), frozenset()) if chosen else frozenset()
        for item in other or ():
            if isinstance(item, ast.Line) and item.target in chosen_vars:
                done = self.write_done.get(id(item))
                if done is not None:
                    done.set()
                continue
            self._skip((item,))
        await self.run_items(chosen)

    async def run_try(self, block: ast.TryBlock) -> None:
        await self.run_items(block.body)
        taken = [c for c in block.catches if self.condition(c.cond)]
        for c in block.catches:
            if c not in taken:
                self._skip(c.body)
        for c in taken:
            await self.run_items(c.body)
        if block.final:
            await self.run_items(block.final)

    def response_headers(self) -> dict[str, str]:
        ret = self.plan.script.ret
        if ret is None or ret.route is None:
            return {}
        headers: dict[str, str] = {}
        for pair in ret.route.headers:
            name = interpolate_text(parse_template(pair.name), self.lookup)
            value = statements.operand_text(self, pair.value)
            headers[name] = value
        return headers


def _first_error(group: BaseExceptionGroup) -> BaseException:
    """The error to report from a task group: the first QlError, else the first error."""
    flat: list[BaseException] = []

    def walk(e: BaseException) -> None:
        if isinstance(e, BaseExceptionGroup):
            for inner in e.exceptions:
                walk(inner)
        else:
            flat.append(e)
    walk(group)
    for e in flat:
        if isinstance(e, QlError):
            return e
    for e in flat:
        if isinstance(e, RecursionError):    # a value the script nested in itself too often
            return StatementError("a value is nested too deeply to work with", status=400)
    for e in flat:
        if not isinstance(e, asyncio.CancelledError):
            # the message may hold anything (a URL, a value): it goes to the log, not the caller
            log.exception("internal error", exc_info=e)
            return StatementError(f"internal error: {type(e).__name__}", status=500)
    return flat[0] if flat else StatementError("script cancelled")
