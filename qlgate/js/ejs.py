"""EJS body templates as ql.io ran them (EJS 0.8): ``<% code %>``, ``<%= value %>``
escaped, ``<%- value %>`` raw, ``-%>`` eating the line break after it, the template's
variables read through ``with (locals)``; helper functions and loops are plain
JavaScript in the template, so the template is compiled to JavaScript and run in the
sandbox (``sandbox.py``) rather than imitated.

The compiled function keeps every line of the template on the same line of the
JavaScript, so an error's line is the template's; it also records the line of each
tag as it runs (as EJS did), which is the line a timeout reports.

Escaping follows the body's media type: EJS's HTML escaping (``&`` ``<`` ``>`` ``"``,
an entity already written kept) for XML and everything else, as ql.io sent them;
JSON string escaping for a JSON body, where ``&quot;`` would corrupt the document.
"""

from __future__ import annotations

from .errors import JsError
from .sandbox import Sandbox, Unit, payload

OPEN, CLOSE = "<%", "%>"


def escaping(media_type: str) -> str:
    subtype = media_type.split(";")[0].strip().lower()
    return "json" if subtype.endswith(("json", "javascript")) else "xml"


def compile_ejs(text: str, file: str) -> tuple[str, list[int]]:
    """The JavaScript of ``text``, ``function (locals, escape)`` returning the body, and
    the template's line of each line of it (a ``//`` comment in a tag costs a line)."""
    lines = [1]
    out = ["(function (locals, escape) { var buf = []; with (locals) { buf.push('"]
    i, n, line = 0, len(text), 1
    eat_eol = False
    while i < n:
        if text.startswith(OPEN, i):
            i += len(OPEN)
            kind = text[i : i + 1]
            if kind in ("=", "-"):
                i += 1
            end = text.find(CLOSE, i)
            if end < 0:
                raise JsError(f"'{OPEN}' is never closed by '{CLOSE}'", file=file, line=line)
            js = text[i:end]
            if js.endswith("-"):
                js, eat_eol = js[:-1], True
            if js.lstrip().startswith("include"):
                raise JsError("EJS include is not supported in body templates", file=file, line=line)
            if js.lstrip().startswith(":"):
                raise JsError("EJS filters (<%=: … %>) are not supported", file=file, line=line)
            mark = f"__qlgate.state.line = {line}"
            lines.extend(line + k for k in range(1, js.count("\n") + 1))
            if kind == "=":
                out.append(f"', escape(({mark}, {js})), '")
            elif kind == "-":
                out.append(f"', (({mark}, {js})), '")
            elif "//" in js:  # a line comment would swallow the rest of the line: end it
                out.append(f"'); {mark}; {js}\n; buf.push('")
                lines.append(line + js.count("\n"))
            else:
                out.append(f"'); {mark}; {js}; buf.push('")
            line += js.count("\n")
            i = end + len(CLOSE)
            continue
        ch = text[i]
        if ch == "\n":
            if eat_eol:
                eat_eol = False
                out.append("',\n'")  # the line break is eaten, the code's line kept
            else:
                out.append("\\n',\n'")
            line += 1
            lines.append(line)
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "'":
            out.append("\\'")
        elif ch == "\r":
            out.append(" ")
        elif ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
        i += 1
    out.append("'); } return buf.join(''); })")
    return "".join(out), lines


class EjsTemplate:
    """One ``.ejs`` file, compiled once; rendered in a context of its own."""

    def __init__(self, text: str, file: str, media_type: str):
        self.file = file
        self.escape = escaping(media_type)
        unit = Unit()
        code, lines = compile_ejs(text, file)
        unit.add(file, "var __qlgate_template = " + code + ";", line_map=lines)
        self.sandbox = Sandbox(
            unit,
            "(function (data, now) { __qlgate.setNow(now); __qlgate.state.line = 0; "
            f"return __qlgate_template(JSON.parse(data), __qlgate.escapes.{self.escape}); }})",
        )

    def check(self) -> None:
        """Compile now: a template that is not JavaScript fails when its table loads."""
        self.sandbox.check()

    async def render(self, locals_: dict, now_ms: int) -> str:
        result = await self.sandbox.call(payload(locals_), float(now_ms))
        return result if isinstance(result, str) else str(result)

    def render_sync(self, locals_: dict, now_ms: int) -> str:
        result = self.sandbox.run_sync(payload(locals_), float(now_ms))
        return result if isinstance(result, str) else str(result)


def ejs_locals(flat: dict, extra: dict, body: object) -> dict:
    """What ql.io 0.8.8 handed an EJS body: ``params`` flat as its patches see them
    (``params['paginationInput.pageNumber']``, ``params.config``) and ``statement``,
    the table's statement (its ``uri``, ``method``, ``headers``, ``defaults``,
    ``body``) with the running statement's ``limit`` and ``offset``; ``config`` too,
    which qlgate's other templates have."""
    params = {k: v for k, v in flat.items() if k != "config"}
    config = flat.get("config")
    params["config"] = config if isinstance(config, dict) else {}
    mapping, info = extra.get("table"), extra.get("statement")
    statement: dict = {
        "table": getattr(mapping, "table", None),
        "type": getattr(mapping, "kind", None),
        "method": getattr(mapping, "method", None),
        "uri": getattr(getattr(mapping, "uri", None), "raw", None),
        "defaults": getattr(mapping, "defaults", None) or {},
        "headers": {n.raw: v.raw for n, v in getattr(mapping, "headers", ()) or ()},
        "body": {"type": getattr(body, "media_type", None), "template": getattr(body, "file", None)},
        "limit": getattr(info, "limit", None),
        "offset": getattr(info, "offset", None),
    }
    return {"params": params, "statement": statement, "config": params["config"]}
