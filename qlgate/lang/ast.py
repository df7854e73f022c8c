"""The script AST: plain dataclasses, no parser types. Quoted text is already
split into ``Template``s and paths into ``Path``s, so later stages never
re-parse strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .paths import Path
from .templates import Template


@dataclass(frozen=True, slots=True)
class Pos:
    line: int
    column: int


# ---------------------------------------------------------------- operands


@dataclass(frozen=True, slots=True)
class TextOperand:
    """Quoted clause text, interpolated when the statement runs."""

    template: Template


@dataclass(frozen=True, slots=True)
class NumberOperand:
    value: int | float


@dataclass(frozen=True, slots=True)
class PathOperand:
    """An unquoted path: a variable reference if its head names a variable,
    otherwise its own literal text (``where format = JSON``)."""

    path: Path


Operand = TextOperand | NumberOperand | PathOperand


# ---------------------------------------------------------------- JSON values


@dataclass(frozen=True, slots=True)
class JsonLiteral:
    """A JSON value whose strings may be ``Template``s; ``templated`` says whether
    filling can change it at all."""

    value: Any
    templated: bool


@dataclass(frozen=True, slots=True)
class UdfCall:
    module: str  # the variable bound by require()
    function: str
    args: tuple[Any, ...]  # JsonLiteral | Path
    pos: Pos


@dataclass(frozen=True, slots=True)
class Require:
    module: str  # file or module name as written
    pos: Pos


@dataclass(frozen=True, slots=True)
class VarRef:
    """A bare word in ``return`` position."""

    name: str
    pos: Pos


# ---------------------------------------------------------------- select & co


@dataclass(frozen=True, slots=True)
class Column:
    path: Path | None
    udf: UdfCall | None
    alias: str | None


@dataclass(frozen=True, slots=True)
class Source:
    name: str
    alias: str | None
    pos: Pos | None = field(default=None, compare=False)  # where the name is written (unknown-table errors)


@dataclass(frozen=True, slots=True)
class EqCondition:
    lhs: Path
    operand: Operand


@dataclass(frozen=True, slots=True)
class InListCondition:
    lhs: Path
    items: tuple[Operand, ...]


@dataclass(frozen=True, slots=True)
class InSelectCondition:
    lhs: Path
    select: Select


@dataclass(frozen=True, slots=True)
class UdfCondition:
    call: UdfCall


Condition = EqCondition | InListCondition | InSelectCondition | UdfCondition


@dataclass(frozen=True, slots=True)
class Tuning:
    timeout: int | None = None
    min_delay: int | None = None
    max_delay: int | None = None


@dataclass(frozen=True, slots=True)
class Select:
    columns: tuple[Column, ...] | None  # None: select *
    sources: tuple[Source, ...]
    where: tuple[Condition, ...]
    limit: int | None
    offset: int | None
    tuning: Tuning
    pos: Pos
    text: str = ""
    expires: int | None = None  # ``expires n``: seconds its answers may be cached (spec §10.9), 0: not at all


@dataclass(frozen=True, slots=True)
class Insert:
    source: Source
    object_text: Template | None  # insert "{obj}" into …
    columns: tuple[str, ...] | None
    values: tuple[Operand, ...] | None
    parts: tuple[Operand, ...] | None
    tuning: Tuning
    pos: Pos
    text: str = ""


@dataclass(frozen=True, slots=True)
class Update:
    source: Source
    with_text: Template
    tuning: Tuning
    pos: Pos
    text: str = ""


@dataclass(frozen=True, slots=True)
class Delete:
    source: Source
    where: tuple[Condition, ...]
    tuning: Tuning
    pos: Pos
    text: str = ""


# ---------------------------------------------------------------- tables


@dataclass(frozen=True, slots=True)
class Pair:
    name: str
    value: Operand


@dataclass(frozen=True, slots=True)
class BodySpec:
    template: str
    media_type: str
    foreach: str | None


@dataclass(frozen=True, slots=True)
class MappingDef:
    kind: str  # select | insert | update | delete
    method: str  # get | post | put | delete | patch | do
    uri: str
    operation: str | None = None  # connector form: do <op> at
    aliases: tuple[Pair, ...] = ()
    headers: tuple[Pair, ...] = ()
    defaults: tuple[Pair, ...] = ()
    patch: str | None = None
    body: BodySpec | None = None
    auth: str | None = None
    credential: str | None = None  # ``using auth 'name'``: an entry of config ``auth`` (OAuth2)
    resultset: str | None = None
    expires: int | None = None
    expect: tuple[tuple[str, bool], ...] = ()
    arrays: tuple[str, ...] = ()  # ``with arrays 'a.b', …``: paths of the result set always arrays
    deprecated: Lifecycle | None = None
    retired: Lifecycle | None = None
    pos: Pos | None = None


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """``deprecated 'DATE' use 'other.table'`` / ``retired 'DATE'``: when the partner
    deprecated (or retires) the API behind a table, and what replaces it."""

    date: str  # YYYY-MM-DD, checked by the parser
    use: str | None = None


@dataclass(frozen=True, slots=True)
class CreateTable:
    name: str
    connector: str | None
    mappings: tuple[MappingDef, ...]
    doc: str
    pos: Pos
    text: str = ""


@dataclass(frozen=True, slots=True)
class ShowTables:
    pos: Pos
    text: str = ""


@dataclass(frozen=True, slots=True)
class ShowRoutes:
    pos: Pos
    text: str = ""


@dataclass(frozen=True, slots=True)
class Describe:
    name: str
    pos: Pos
    text: str = ""


@dataclass(frozen=True, slots=True)
class DescribeRoute:
    path: str
    method: str
    pos: Pos
    text: str = ""


Statement = Select | Insert | Update | Delete | CreateTable | ShowTables | ShowRoutes | Describe | DescribeRoute
Choice = Statement | JsonLiteral | UdfCall | Require | VarRef


# ---------------------------------------------------------------- script


@dataclass(frozen=True, slots=True)
class Line:
    """``[target =] choice || choice …``"""

    target: str | None
    choices: tuple[Choice, ...]
    pos: Pos
    text: str = ""


@dataclass(frozen=True, slots=True)
class RouteSpec:
    path: str
    method: str
    optional_params: bool
    defaults: tuple[Pair, ...]
    headers: tuple[Pair, ...]
    pos: Pos
    arrays: tuple[str, ...] = ()  # ``with arrays 'items', …``: paths of the answer always arrays


@dataclass(frozen=True, slots=True)
class Return:
    choices: tuple[Choice, ...]
    route: RouteSpec | None
    pos: Pos
    doc: str = ""
    text: str = ""


@dataclass(frozen=True, slots=True)
class CondVar:
    name: str


@dataclass(frozen=True, slots=True)
class CondNot:
    operand: Cond


@dataclass(frozen=True, slots=True)
class CondAnd:
    operands: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class CondOr:
    operands: tuple[Cond, ...]


Cond = CondVar | CondNot | CondAnd | CondOr


@dataclass(frozen=True, slots=True)
class Throw:
    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class IfBlock:
    cond: Cond
    then: tuple[Item, ...]
    orelse: tuple[Item, ...] | None
    pos: Pos


@dataclass(frozen=True, slots=True)
class Catch:
    cond: Cond
    body: tuple[Item, ...]
    pos: Pos  # of the ``catch``: errors about its condition point here, not at the ``try``


@dataclass(frozen=True, slots=True)
class TryBlock:
    body: tuple[Item, ...]
    catches: tuple[Catch, ...]
    final: tuple[Item, ...] | None
    pos: Pos


Item = Line | IfBlock | TryBlock | Throw


@dataclass(frozen=True, slots=True)
class Script:
    items: tuple[Item, ...]
    ret: Return | None
    source: str = field(default="", repr=False)
