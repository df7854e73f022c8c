"""The operation model every table generator writes from.

An OpenAPI 3.x document, a Swagger 2 document and eBay's REST digest
(``../shared/ebay/rest-catalog.json``) say the same things in three shapes; each is
read into these frozen dataclasses once (``normalise.py``, ``qlgate.ebay.rest_generate``)
so that one writer (``writer.py``) turns an operation into a table. Schemas are
kept as the digest's small nodes — ``{"type", "properties", "items", "required",
"format", "truncated"}`` — with every ``$ref`` already resolved.

The naming rules live here too, since they are what users type: how a parameter,
a header or a body member becomes a column, and which member of an answer is its
main array.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

VERBS = {"get": "select", "post": "insert", "put": "update", "patch": "update", "delete": "delete"}
TARGETS = {"get": "get from", "post": "post to", "put": "put to", "patch": "patch", "delete": "delete"}
# headers the gateway or the table itself sets: never a column
OWN_HEADERS = {"authorization", "content-type", "content-length", "accept", "accept-encoding", "host", "connection"}
# members of a collection answer besides its one array (paging and bookkeeping)
COLLECTION_MEMBERS = {
    "href",
    "next",
    "prev",
    "previous",
    "first",
    "last",
    "limit",
    "offset",
    "total",
    "size",
    "count",
    "page",
    "pageSize",
    "pages",
    "totalPages",
    "totalCount",
    "refinement",
    "autoCorrections",
    "categoryTreeId",
    "categoryTreeVersion",
    "warnings",
    "errors",
    "links",
    "_links",
}
LIMIT_NAMES = ("limit", "pageSize", "page_size", "perPage", "per_page", "maxResults", "max_results", "size", "count")
OFFSET_NAMES = ("offset", "start", "startIndex", "start_index", "skip")
PAGE_NAMES = ("page", "pageNumber", "page_number", "pageIndex", "pageNo")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Param:
    """A path, query or header parameter and the column that fills it."""

    name: str  # as the API spells it
    location: str  # path | query | header
    required: bool
    column: str
    kind: str = "string"  # string | integer | number | boolean | <kind>[] for arrays
    default: str | None = None  # a literal, or a {config…} reference
    example: Any = None  # the spec's example value, for the doc's Example line


@dataclass(frozen=True)
class Body:
    media_type: str
    schema: dict[str, Any]
    required: bool = False


@dataclass(frozen=True)
class Paging:
    """The API's paging parameters the statement's ``limit``/``offset`` fill."""

    limit: str | None = None
    offset: str | None = None
    page: str | None = None  # a page number: offset / limit + 1, set by the shared patch


@dataclass(frozen=True)
class Operation:
    """One HTTP operation, everything a table of it needs."""

    operation_id: str
    method: str  # lower case
    path: str
    summary: str = ""
    params: tuple[Param, ...] = ()
    body: Body | None = None
    response: dict[str, Any] | None = None
    response_type: str | None = None
    auth: str | None = None  # the config ``auth`` entry's name
    scopes: tuple[str, ...] = ()
    deprecated: bool = False
    headers: tuple[tuple[str, str], ...] = ()  # constant (or config) headers
    query: tuple[tuple[str, str], ...] = ()  # constant (or config) query parameters
    notes: tuple[str, ...] = ()  # extra doc lines

    @property
    def verb(self) -> str:
        return VERBS[self.method]

    @property
    def paging(self) -> Paging:
        names = {p.name: p for p in self.params if p.location == "query"}
        limit = next((n for n in LIMIT_NAMES if n in names), None)
        offset = next((n for n in OFFSET_NAMES if n in names), None)
        page = next((n for n in PAGE_NAMES if n in names), None) if offset is None else None
        return Paging(limit, offset, page)


@dataclass
class Api:
    """A whole spec: its operations, where it lives and how it is authorised."""

    title: str
    server: str  # the default base URL
    operations: list[Operation] = field(default_factory=list)
    auth: dict[str, Any] | None = None  # the config ``auth`` entry to suggest
    config: dict[str, Any] = field(default_factory=dict)  # other config keys to suggest
    warnings: list[str] = field(default_factory=list)  # what was left out, and why


# ------------------------------------------------------------------ naming rules


def camel(words: list[str]) -> str:
    words = [w for w in words if w]
    if not words:
        return ""
    head = words[0][0].lower() + words[0][1:] if not words[0].isupper() else words[0].lower()
    return head + "".join(w[0].upper() + (w[1:].lower() if w.isupper() else w[1:]) for w in words[1:])


def identifier(name: str, fallback: str = "value") -> str:
    """A word of the language (§2.3) for ``name``: kept when it already is one, else
    its alphanumeric runs in camelCase (``filter[name]`` → ``filterName``)."""
    if _WORD.match(name) and not name.startswith("_"):
        return name
    words = re.findall(r"[A-Za-z0-9]+", name)
    out = camel(words)
    if not out or not out[0].isalpha():
        out = fallback + (out[:1].upper() + out[1:] if out else "")
    return out


def header_column(name: str) -> str:
    """The column of a header parameter: its words in camelCase without a leading
    ``X-`` (``X-Request-ID`` → ``requestId``, ``Accept-Language`` → ``acceptLanguage``)."""
    words = re.findall(r"[A-Za-z0-9]+", name)
    if len(words) > 1 and words[0].lower() == "x":
        words = words[1:]
    return identifier(camel(words), "header")


def operation_name(operation_id: str | None, method: str, path: str) -> str:
    """The table's last name: the operationId as a word, else method + path
    (``GET /pets/{petId}/photos`` → ``getPetsPetIdPhotos``)."""
    if operation_id:
        return identifier(operation_id, "op")
    words = [method.lower(), *re.findall(r"[A-Za-z0-9]+", path)]
    return identifier(camel(words), "op")


def main_array(schema: dict[str, Any] | None) -> str:
    """The resultset: the answer's one array member when everything else in it is
    paging or bookkeeping (``itemSummaries`` beside ``total``, ``next``…); else the
    whole answer (an item's ``images`` array does not make it a collection)."""
    if not schema or schema.get("type") != "object":
        return ""
    props = schema.get("properties") or {}
    arrays = [k for k, v in props.items() if v.get("type") == "array" and k not in ("warnings", "errors")]
    if len(arrays) != 1:
        return ""
    others = [k for k in props if k != arrays[0]]
    return arrays[0] if all(k in COLLECTION_MEMBERS for k in others) else ""


def schema_kind(node: dict[str, Any] | None) -> str:
    """A schema node as a ``field`` filter kind (``qlgate/tables/json_body.py``)."""
    if not node:
        return "any"
    kind = node.get("type")
    if kind == "array":
        inner = schema_kind(node.get("items"))
        return "any" if inner in ("any", "object") or inner.endswith("[]") else inner + "[]"
    if kind in ("string", "integer", "number", "boolean"):
        return str(kind)
    return "any"


def body_fields(schema: dict[str, Any], prefix: str = "", within: bool = True) -> list[tuple[str, str, bool]]:
    """The columns of a JSON body: ``(dotted path, kind, required)`` for every leaf —
    a scalar, an array, or an object whose members are unknown (a map, a truncated
    or recursive node) — in the schema's member order. A member is required only
    when every object on its way is (``within``)."""
    out: list[tuple[str, str, bool]] = []
    required = set(schema.get("required") or ())
    for name, node in (schema.get("properties") or {}).items():
        path = f"{prefix}{identifier(name, 'member')}"
        if node.get("type") == "object" and node.get("properties") and not node.get("truncated"):
            out += body_fields(node, path + ".", within and name in required)
        else:
            out.append((path, schema_kind(node), within and name in required))
    return out
