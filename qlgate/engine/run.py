"""One execution of a compiled plan (spec §7).

Every statement is a task that starts at once and waits only for the
variables it refers to (one future per variable), so independent statements
run concurrently and dependants start the moment their inputs are known.
Writes to tables additionally wait for the previous write.

A ``Run`` holds the run's state (variables, warnings, diagnostics) and is the
``RunContext`` its statements see; the work it hands on lives elsewhere: the
budget in ``budget.py``, the calls' path in ``call_path.py``, statements in
``statements.py``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostics, statement_line
from ..errors import CompileError, QlError, StatementError
from ..lang import ast
from ..lang.templates import Template, interpolate_text, parse_template
from ..lang.walk import walk
from ..tables.files import CodeDirs
from ..tables.registry import TableRegistry
from ..trust import Trust
from ..values import MISSING, is_nullish, truthy
from . import statements
from .backoff import Delays
from .budget import Budget
from .context import EngineServices
from .options import RunOptions
from .planner import Plan

if TYPE_CHECKING:
    from ..routes import Route
    from ..tables.model import Table
    from .call import RunCalls
    from .call_steps import Step

log = logging.getLogger("qlgate.engine")


class Run:
    def __init__(
        self, engine: EngineServices, plan: Plan, tables: TableRegistry, options: RunOptions, trust: Trust | None = None
    ):
        """``trust``: what the script was compiled under (``Compiled.trust``)."""
        self.engine = engine
        self.plan = plan
        self.tables = tables
        self.options = options
        self.config = engine.config
        self.settings = engine.config.settings
        self.secrets = engine.config.secrets
        self.credentials = engine.credentials
        self.request = options.request
        self.request_id = options.request_id or None
        self.trust = trust or Trust.deployer()
        self._script_config: dict[str, Any] | None = None
        self.context = dict(options.context or {})
        self.values_only = options.values_only  # context names that are data, never a table
        self.vars: dict[str, Any] = {k: v for k, v in self.context.items() if v is not MISSING}
        loop = asyncio.get_running_loop()
        self.ready: dict[str, asyncio.Future] = {name: loop.create_future() for name in plan.assigned}
        self.write_done: dict[int, asyncio.Event] = {i: asyncio.Event() for i in plan.write_lines}
        self.values: dict[int, Any] = {}
        self.diagnostics = Diagnostics()
        self.warnings: list[str] = list(plan.warnings)
        self.budget = Budget(self.settings.script_budget)
        self.shares_answers = options.shares_answers
        self._calls: RunCalls | None = None
        self._readonly_vars: MappingProxyType | None = None

    @property
    def calls(self) -> RunCalls:
        """The run's side of its upstream calls (``call.py``): made by the first call, so
        a script that calls nothing imports no HTTP client (``qlgate run -e 'return 1;'``
        starts fast)."""
        if self._calls is None:
            from .call import RunCalls

            trust, tables = self.trust, self.tables
            self._calls = RunCalls(
                self.diagnostics,
                self.secrets,
                self.options,
                # a caller's calls are checked against the host allow-list (redirects too)
                check_url=trust.check_url if trust.allowed_hosts is not None else None,
                deployer_tables=tables.parent if tables.parent is not None else tables,
            )
        return self._calls

    def call_path(self, table: Table, kind: str, delays: Delays) -> Step:
        """The path ``table``'s calls of this kind take (``call_path.py``). A caller's run
        counts no failure against a deployer's table (failing on purpose must not make
        it back off for everyone); a caller's own table is never on the back-off board,
        and its calls count against the limits of the deployer's tables that call the
        same host (never of a type its name would choose)."""
        trust = self.trust
        own = trust.is_caller and self.tables.parent is not None and table.by_caller
        return self.engine.call_paths.path(
            shares=kind == "select",
            waits=not own,
            counts=not trust.is_caller,
            gated=self.options.call_gate is not None,
            own_types=own,
            delays=delays,
        )

    @property
    def routes(self) -> Sequence[Route]:
        return self.engine.routes  # (a lazily opened engine loads them when first asked)

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
        return self.engine.script_dirs(self.options.base_dir, extra)

    def is_variable(self, name: str) -> bool:
        """Does ``name`` in ``from``/``into`` or a bare path operand stand for a variable
        (else a table, or literal text)? Names the script assigns and its declared
        inputs do; members of a request body the route did not declare do not, or a
        caller could replace a table the route reads with data of their own."""
        return name in self.plan.assigned or (name in self.context and name not in self.values_only)

    def readonly_vars(self) -> MappingProxyType:
        view = self._readonly_vars
        if view is None:  # one view for every call of the run: ``vars`` is never rebound
            view = self._readonly_vars = MappingProxyType(self.vars)
        return view

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

    # ------------------------------------------------------------------ RunContext: building and sending
    def spend(self, units: int, what: str) -> None:
        self.budget.spend(units, what)

    def note_size(self, value: Any, size: int) -> None:
        self.budget.note_size(value, size)

    def fill(self, value: Any) -> Any:
        return self.budget.fill(value, self.lookup)

    def text(self, template: Template) -> str:
        return self.budget.text(template, self.lookup)

    def interpolate(self, template: Template) -> Any:
        return self.budget.interpolate(template, self.lookup)

    async def select(self, stmt: ast.Select) -> Any:
        return await statements.select(self, stmt)

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
        elif isinstance(item, ast.Throw) and item.name not in self.vars:
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
        assert ret is not None  # run only for a script with a return
        previous = self.plan.write_after.get(id(ret))
        if previous is not None:
            await self.write_done[previous].wait()
        value = await self.evaluate_choices(ret.choices, None)
        if ret.route is not None and ret.route.arrays and value is not MISSING:
            from ..tables.shapes import array_paths

            value = array_paths(ret.route.arrays).apply(value)  # ``with arrays``: the route's lists, always arrays
        return value

    async def evaluate_choices(self, choices: tuple, target: str | None) -> Any:
        """A fallback chain (§7.5): the first alternative that succeeds with a value."""
        last = len(choices) - 1
        for index, choice in enumerate(choices):
            await self.wait(self.plan.deps.get(id(choice), ()))
            pos = getattr(choice, "pos", None)
            if pos is not None:  # the line its upstream calls are recorded with (this task's own)
                statement_line.set(pos.line)
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

    # ------------------------------------------------------------------ blocks
    def _skip(self, items: tuple | None) -> None:
        """A branch that will not run: its variables become null, its writes are done."""
        for node in walk(items or (), into=_holds_items):
            if isinstance(node, ast.Line):
                if node.target and node.target not in self.vars:
                    self.assign(node.target, None)
                done = self.write_done.get(id(node))
                if done is not None:
                    done.set()
            elif isinstance(node, ast.Throw) and node.name not in self.vars:
                self.assign(node.name, None)

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


def _holds_items(node: Any) -> bool:
    """Blocks hold lines; a line's statements hold none (``Run._skip`` stops there)."""
    return isinstance(node, (ast.IfBlock, ast.TryBlock, ast.Catch))


def _first_error(group: BaseExceptionGroup) -> BaseException:
    """The error to report from a task group: the first QlError, else the first error."""
    flat: list[BaseException] = []

    def flatten(e: BaseException) -> None:
        if isinstance(e, BaseExceptionGroup):
            for inner in e.exceptions:
                flatten(inner)
        else:
            flat.append(e)

    flatten(group)
    for e in flat:
        if isinstance(e, QlError):
            return e
    for e in flat:
        if isinstance(e, RecursionError):  # a value the script nested in itself too often
            return StatementError("a value is nested too deeply to work with", status=400)
    for e in flat:
        if not isinstance(e, asyncio.CancelledError):
            # the message may hold anything (a URL, a value): it goes to the log, not the caller
            log.exception("internal error", exc_info=e)
            return StatementError(f"internal error: {type(e).__name__}", status=500)
    return flat[0] if flat else StatementError("script cancelled")
