"""Generate the eBay table set from the call catalog.

    python -m qlgate.ebay.generate --catalog data/ebay/catalog.json --out tables/ebay

Writes one readable ``.ql`` table per call (Finding, Shopping, Trading, and the
well-known calls ql.io's set lacked) and, per XML service, ``schema.json``: the
request fields in schema order that the shared patch turns into the request
body. Each table declares, with ``with arrays``, the elements of its answer that
the schema lets repeat (maxOccurs > 1): XML gives one such element as an object
and several as an array, and the declaration makes them arrays either way. The
output is committed; ``tests/ebay/test_generate.py`` checks it is up
to date. The shared patches (``finding.py``, ``shopping.py``, ``trading.py``)
are written by hand and not touched here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


def _wrap(words: list[str], prefix: str, width: int = 100) -> list[str]:
    lines, current = [], prefix
    indent = "--" + " " * (len(prefix) - 2)
    for word in words:
        if len(current) + len(word) + 2 > width and current not in (prefix, indent):
            lines.append(current.rstrip(", ") + ",")
            current = indent
        current += word + ", "
    if current not in (prefix, indent):
        lines.append(current.rstrip(", "))
    return lines


# "try it" scripts for the console and describe pages; the values exist in the emulator's seed
EXAMPLES = {
    "ebay.finding.findItemsByKeywords": 'select searchResult.item from ebay.finding.findItemsByKeywords where keywords = "iphone"',
    "ebay.finding.findItemsByCategory": 'select searchResult.item from ebay.finding.findItemsByCategory where categoryId = "9355"',
    "ebay.finding.findItemsAdvanced": 'select searchResult.item from ebay.finding.findItemsAdvanced where keywords = "iphone" and categoryId = "9355"',
    "ebay.shopping.GetSingleItem": 'select Item from ebay.shopping.GetSingleItem where ItemID = "230851234561"',
    "ebay.shopping.GetMultipleItems": 'select Item from ebay.shopping.GetMultipleItems where ItemID in ("230851234561", "230851234562")',
    "ebay.shopping.GetUserProfile": 'select User from ebay.shopping.GetUserProfile where UserID = "testuser_magicalbookseller"',
    "ebay.trading.GetItem": 'select Item.Title, Item.SellingStatus from ebay.trading.GetItem where ItemID = "230851234561"',
    "ebay.trading.AddToWatchList": 'insert into ebay.trading.AddToWatchList (ItemID) values ("230851234561")',
    "ebay.trading.GetMyeBayBuying": 'select WatchList from ebay.trading.GetMyeBayBuying where WatchList.Include = "true"',
}


def _doc(summary: str, columns: list[str], extra: list[str], table: str = "") -> list[str]:
    out = [f"-- {summary}".rstrip()]
    out += [f"-- {line}" for line in extra]
    if table in EXAMPLES:
        out.append(f"-- Example: {EXAMPLES[table]}")
    if columns:
        out += (
            _wrap(columns, "-- Columns: ")
            if len(columns) <= 40
            else _wrap([*columns[:40], f"… ({len(columns) - 40} more in schema.json)"], "-- Columns: ")
        )
    return out


def _pairs(pairs: list[tuple[str, str]], keyword: str) -> list[str]:
    if not pairs:
        return []
    first = f"     {keyword} "
    rendered = [f"'{name}' = '{value}'" if "'" not in value else f"'{name}' = \"{value}\"" for name, value in pairs]
    lines = [first + rendered[0]]
    pad = " " * len(first)
    for item in rendered[1:]:
        lines[-1] += ","
        lines.append(pad + item)
    return lines


def _defaults(pairs: list[tuple[str, str]]) -> list[str]:
    if not pairs:
        return []
    first = "     using defaults "
    lines = [first + f'{pairs[0][0]} = "{pairs[0][1]}"']
    for name, value in pairs[1:]:
        lines[-1] += ","
        lines.append(" " * len(first) + f'{name} = "{value}"')
    return lines


def _field_spec(field: dict[str, Any]) -> str:
    path = field["path"]
    if field.get("kind") == "attribute":
        head, _, attr = path.rpartition(".")
        return f"{head}.@{attr}"
    return path


def _columns(fields: list[dict[str, Any]]) -> list[str]:
    picked = [f["path"] for f in fields if f.get("ql_io_column")]
    return picked or [f["path"] for f in fields if "." not in f["path"]]


# ------------------------------------------------------------------ stable shapes

# the type of the fields every answer of a service has (Ack, Errors…), in catalog["types"]
RESPONSE_BASE = {
    "trading": "AbstractResponseType",
    "shopping": "AbstractResponseType",
    "finding": "BaseServiceResponse",
}


def _response_tree(catalog: dict[str, Any], service: str, fields: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    """Every element path of an answer, from the schema, with whether it may repeat
    (maxOccurs > 1: ``repeated``); attributes, which become members too, never do.
    A type already on the way down is not entered again, so recursive types (a
    category's child categories) end."""
    types = catalog.get("types", {}).get(service, {})
    base = types.get(RESPONSE_BASE[service], {}).get("fields", [])
    out: list[tuple[str, bool]] = []

    def walk(fields: list[dict[str, Any]], prefix: str, seen: frozenset[str]) -> None:
        for f in fields:
            path = prefix + f["name"]
            out.append((path, bool(f.get("repeated")) and not f.get("attribute")))
            if f.get("attribute"):
                continue
            kind = f.get("type", "")
            if kind in types and kind not in seen:
                walk(types[kind].get("fields", []), path + ".", seen | {kind})

    walk([*base, *fields], "", frozenset())
    return out


def array_paths(catalog: dict[str, Any], service: str, call: dict[str, Any]) -> list[str]:
    """The ``with arrays`` paths of a call's table, relative to its result set (the
    response root): the call's main list (``repeated_path``) written out, so that it
    is ``[]`` when nothing matched; every other repeating element by the shortest
    ``..`` suffix that names only repeating elements in this answer (``..Errors``,
    ``..NameValueList.Value``: wrapped where found, never added), or by its full
    path where none does."""
    response = call.get("response") or {}
    tree = _response_tree(catalog, service, response.get("fields", []))
    flags: dict[tuple[str, ...], set[bool]] = {}
    for path, repeated in tree:
        steps = tuple(path.split("."))
        for k in range(1, len(steps) + 1):
            flags.setdefault(steps[-k:], set()).add(repeated)
    main = response.get("repeated_path") or ""
    explicit = [main] if (main, True) in tree else []
    anywhere: list[str] = []
    for path, repeated in tree:
        if not repeated or path in explicit:
            continue
        steps = tuple(path.split("."))
        tail = next((n for n in range(1, len(steps) + 1) if flags[steps[-n:]] == {True}), None)
        if tail is None:  # its full path also ends a path that does not repeat
            explicit.append(path)
        else:
            anywhere.append(".." + ".".join(steps[-tail:]))
    return list(dict.fromkeys([*explicit, *anywhere]))


def _arrays(paths: list[str]) -> list[str]:
    if not paths:
        return []
    first = "     with arrays "
    pad = " " * len(first)
    lines = [first]
    for path in paths:
        item = f"'{path}'"
        if lines[-1] not in (first, pad) and len(lines[-1]) + len(item) + 2 > 100:
            lines[-1] = lines[-1].rstrip(" ")
            lines.append(pad)
        lines[-1] += item + ", "
    lines[-1] = lines[-1].rstrip(", ")
    return lines


# ------------------------------------------------------------------ per service


def trading_table(call: dict[str, Any], arrays: list[str] | None = None) -> tuple[str, list[str]]:
    name = call["call"]
    verbs = list(dict.fromkeys(call["ql_verbs"]))
    headers = [(h, v.replace("qa.eBayAuthToken", "eBayAuthToken")) for h, v in call["http"]["headers"]]
    fields = call["request"]["fields"]
    doc = _doc(
        call.get("summary", ""),
        _columns(fields),
        [
            f"eBay Trading {name}: POST to the Trading gateway; the request body is built from the columns",
            "in schema order by trading.py, and Ack=Failure becomes a statement error.",
        ],
        f"ebay.trading.{name}",
    )
    lines = [*doc, f"create table ebay.trading.{name}"]
    for verb in verbs:
        lines.append(f'  on {verb} post to "{{config.tables.ebay.trading.gateway}}"')
        lines += _pairs(headers, "using headers")
        lines += _defaults([("RequesterCredentials.eBayAuthToken", "{config.tables.ebay.trading.eBayAuthToken}")])
        lines.append("     using patch 'trading.py'")
        lines.append(f"     resultset '{name}Response'")
        lines += _arrays(arrays or [])
    return "\n".join(lines) + "\n", [_field_spec(f) for f in fields]


def trading_extra_table(call: dict[str, Any], arrays: list[str] | None = None) -> tuple[str, list[str]]:
    """A well-known call ql.io's set lacked: only its top-level fields are known."""
    name = call["call"]
    fields = [{"path": f} for f in call["top_level_fields"]]
    headers = [
        ("X-EBAY-API-COMPATIBILITY-LEVEL", "{config.tables.ebay.trading.version}"),
        ("X-EBAY-API-SITEID", "{config.tables.ebay.trading.siteid}"),
        ("X-EBAY-API-CALL-NAME", name),
    ]
    return trading_table(
        {
            "call": name,
            "ql_verbs": call["ql_verbs"],
            "summary": call.get("summary", ""),
            "http": {"headers": headers},
            "request": {"fields": fields},
        },
        arrays,
    )


FINDING_GET_QUERY = {
    "getHistograms": "OPERATION-NAME=getHistograms&SECURITY-APPNAME={^apikey}&RESPONSE-DATA-FORMAT={format}"
    "&categoryId={^categoryId}",
    "getSearchKeywordsRecommendation": "OPERATION-NAME=getSearchKeywordsRecommendation&SERVICE-VERSION=1.11.0"
    "&SECURITY-APPNAME={^apikey}&RESPONSE-DATA-FORMAT={format}&REST-PAYLOAD"
    "&keywords={^keywords}",
    "getVersion": "OPERATION-NAME=getVersion&SECURITY-APPNAME={^apikey}&RESPONSE-DATA-FORMAT={format}",
}


def finding_table(call: dict[str, Any], arrays: list[str] | None = None) -> tuple[str, list[str]]:
    name = call["call"]
    if name in FINDING_GET_QUERY:
        lines = _doc(
            call.get("summary", ""),
            [],
            [f"eBay Finding {name}: GET with URL parameters; answers JSON."],
            f"ebay.finding.{name}",
        )
        lines += [
            f"create table ebay.finding.{name}",
            f'  on select get from "{{config.tables.ebay.finding.gateway}}?{FINDING_GET_QUERY[name]}"',
        ]
        lines += _defaults([("apikey", "{config.tables.ebay.finding.appname}"), ("format", "JSON")])
        lines.append("     using patch 'finding.py'")
        lines.append(f"     resultset '{call['response']['resultset']}'")
        if call["response"]["resultset"] == call["response"].get("root"):
            lines += _arrays(arrays or [])
        return "\n".join(lines) + "\n", []
    fields = call["request"]["fields"] if "request" in call else [{"path": f} for f in call["top_level_fields"]]
    headers = [
        ("X-EBAY-SOA-SECURITY-APPNAME", "{config.tables.ebay.finding.appname}"),
        ("X-EBAY-SOA-OPERATION-NAME", name),
    ]
    lines = _doc(
        call.get("summary", ""),
        _columns(fields),
        [
            f"eBay Finding {name}: POST to the Finding gateway; finding.py builds the request body and maps",
            "limit/offset onto paginationInput (entriesPerPage, pageNumber).",
        ],
        f"ebay.finding.{name}",
    )
    lines += [
        f"create table ebay.finding.{name}",
        '  on select post to "{config.tables.ebay.finding.gateway}"',
        "     with aliases limit = 'paginationInput.entriesPerPage'",
    ]
    lines += _pairs(headers, "using headers")
    lines.append("     using patch 'finding.py'")
    lines.append(f"     resultset '{name}Response'")
    lines += _arrays(arrays or [])
    return "\n".join(lines) + "\n", [_field_spec(f) for f in fields]


def shopping_table(call: dict[str, Any], arrays: list[str] | None = None) -> str:
    name = call["call"]
    query = urlsplit(call["http"]["url"]).query
    parts = []
    for pair in query.split("&"):
        key, _, value = pair.partition("=")
        if key == "version":
            value = "{version}"
        parts.append(f"{key}={value}")
    defaults = [(k, v) for k, v in (call.get("defaults") or {}).items() if k not in ("siteid", "version", "apikey")]
    defaults = [
        ("apikey", "{config.tables.ebay.shopping.appid}"),
        ("siteid", "{config.tables.ebay.shopping.siteid}"),
        ("version", "{config.tables.ebay.shopping.version}"),
        *defaults,
    ]
    columns = [p["column"] for p in call["http"].get("url_params", []) if p.get("column")]
    lines = _doc(
        call.get("summary", ""),
        columns,
        [f"eBay Shopping {name}: GET with URL parameters (empty optional ones are dropped); answers JSON."],
        f"ebay.shopping.{name}",
    )
    lines += [
        f"create table ebay.shopping.{name}",
        f'  on select get from "{{config.tables.ebay.shopping.gateway}}?{"&".join(parts)}"',
    ]
    lines += _defaults(defaults)
    lines.append("     using patch 'shopping.py'")
    lines += _arrays(arrays or [])
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ all of it


def generate(catalog: dict[str, Any]) -> dict[str, str]:
    """Relative path → file text, for everything this tool owns."""
    files: dict[str, str] = {}
    schemas: dict[str, dict[str, Any]] = {
        "trading": {
            "namespace": catalog["services"]["trading"]["namespace"],
            "declaration": True,
            "common_fields": [_field_spec(f) for f in catalog["services"]["trading"]["common_request_fields"]],
            "calls": {},
        },
        "finding": {
            "namespace": catalog["services"]["finding"]["namespace"],
            "declaration": True,
            "common_fields": [],
            "calls": {},
        },
    }
    for call in catalog["calls"]:
        service, name = call["service"], call["call"]
        arrays = array_paths(catalog, service, call)
        if service == "trading":
            text, fields = trading_table(call, arrays)
            schemas["trading"]["calls"][name] = {"root": call["request"]["root"], "fields": fields}
        elif service == "finding":
            text, fields = finding_table(call, arrays)
            if fields:
                schemas["finding"]["calls"][name] = {"root": call["request"]["root"], "fields": fields}
        else:
            text = shopping_table(call, arrays)
        files[f"{service}/{name}.ql"] = text
    for call in catalog["not_covered_by_ql_io_tables"]:
        service, name = call["service"], call["call"]
        arrays = array_paths(catalog, service, call)  # the fields every answer has: Errors…
        if service == "trading":
            text, fields = trading_extra_table(call, arrays)
            schemas["trading"]["calls"][name] = {"root": call.get("request_root", name + "Request"), "fields": fields}
        else:
            text, fields = finding_table(call, arrays)
            schemas["finding"]["calls"][name] = {"root": call.get("request_root", name + "Request"), "fields": fields}
        files[f"{service}/{name}.ql"] = text
    for service, schema in schemas.items():
        files[f"{service}/schema.json"] = json.dumps(schema, indent=1, sort_keys=False) + "\n"
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--catalog", default="data/ebay/catalog.json")
    parser.add_argument("--out", default="tables/ebay")
    args = parser.parse_args(argv)
    catalog = json.loads(Path(args.catalog).read_text(encoding="utf-8"))
    out = Path(args.out)
    for rel, text in generate(catalog).items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(generate(catalog))} files under {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
