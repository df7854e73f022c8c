"""A ``RunContext`` without an engine, for testing statements on their own:
variables in a dict, tables compiled from text, upstream answers scripted per
path. What a statement sent is kept in ``sent``; its warnings in ``warnings``.

That statements can be run this way is the point of typing them against the
``RunContext`` protocol rather than the executor's ``Run``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

from qlgate.config import Config
from qlgate.diagnostics import Diagnostics
from qlgate.engine import statements
from qlgate.engine.backoff import Delays
from qlgate.engine.budget import Budget
from qlgate.engine.call import Call, RunCalls
from qlgate.engine.call_steps import Step
from qlgate.engine.context import RunContext
from qlgate.engine.options import RunOptions
from qlgate.http.client import HttpRequest, HttpResponse
from qlgate.lang import ast
from qlgate.lang.parser import parse
from qlgate.lang.templates import Template
from qlgate.request_info import RequestInfo
from qlgate.tables.files import CodeDirs
from qlgate.tables.model import Table, compile_table
from qlgate.tables.registry import TableRegistry
from qlgate.trust import Trust
from qlgate.values import MISSING

BASE = "http://upstream.test"
Answer = Callable[[HttpRequest], Any]


def table(text: str, config: dict[str, Any] | None = None) -> Table:
    (item,) = parse(text).items
    return compile_table(item.choices[0], {"base": BASE, **(config or {})}, CodeDirs())


def statement(text: str) -> Any:
    """The first statement of ``x = <text>``."""
    (item,) = parse(f"x = {text}").items
    return item.choices[0]


class NoCredentials:
    """A run whose tables use no ``using auth``: no token to give, none to renew."""

    async def access_token(self, name: str) -> str:
        raise AssertionError(f"no credential {name!r} in a fake run")

    async def renew(self, name: str, rejected: str) -> str:
        raise AssertionError(f"no credential {name!r} in a fake run")

    def current(self, name: str) -> str | None:
        return None


class FakeRun:
    def __init__(
        self,
        variables: dict[str, Any] | None = None,
        *,
        tables: tuple[Table, ...] = (),
        config: dict[str, Any] | None = None,
        answers: dict[str, Answer] | None = None,
    ):
        self.config = Config.from_dict({"base": BASE, **(config or {})}, env={})
        self.settings = self.config.settings
        self.secrets = self.config.secrets
        self.trust = Trust.deployer()
        self.credentials = NoCredentials()
        self.tables = TableRegistry(tables)
        self.routes: list = []
        self.request: RequestInfo | None = None
        self.request_id: str | None = None
        self.shares_answers = False
        self.vars: dict[str, Any] = dict(variables or {})
        self.budget = Budget(self.settings.script_budget)
        self.answers = answers or {}
        self.sent: list[HttpRequest] = []
        self.warnings: list[str] = []

    async def evaluate(self, text: str) -> Any:
        return await statements.evaluate(self, statement(text), "x")

    # ---- RunContext
    def lookup(self, name: str) -> Any:
        return self.config.data if name == "config" else self.vars.get(name, MISSING)

    def is_variable(self, name: str) -> bool:
        return name in self.vars

    def readonly_vars(self) -> MappingProxyType:
        return MappingProxyType(self.vars)

    def module_dirs(self, extra: list[Path]) -> CodeDirs:
        return CodeDirs.of(extra)

    def fill(self, value: Any) -> Any:
        return self.budget.fill(value, self.lookup)

    def text(self, template: Template) -> str:
        return self.budget.text(template, self.lookup)

    def interpolate(self, template: Template) -> Any:
        return self.budget.interpolate(template, self.lookup)

    def spend(self, units: int, what: str) -> None:
        self.budget.spend(units, what)

    def note_size(self, value: Any, size: int) -> None:
        self.budget.note_size(value, size)

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    @property
    def calls(self) -> RunCalls:
        return RunCalls(Diagnostics(), self.secrets, RunOptions())

    def call_path(self, table: Table, kind: str, delays: Delays) -> Step:
        """Every call answered from ``answers`` by its path, whatever its table and kind."""
        return self._answer

    async def _answer(self, call: Call) -> HttpResponse:
        request = call.request
        self.sent.append(request)
        answer = self.answers[urlsplit(request.url).path](request)
        return HttpResponse(200, {"content-type": "application/json"}, json.dumps(answer).encode(), request.url)

    async def select(self, stmt: ast.Select) -> Any:
        return await statements.select(self, stmt)


def _conforms(run: FakeRun) -> RunContext:
    return run  # type-checked: FakeRun is a RunContext
