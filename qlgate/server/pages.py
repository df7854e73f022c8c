"""Describe pages as HTML for browsers (spec §14.3): the same data as the JSON
endpoints, rendered as plain, escaped HTML — links stay links."""

from __future__ import annotations

import json
from html import escape
from typing import Any

STYLE = (
    "body{font:14px/1.45 system-ui,sans-serif;margin:2rem;max-width:70rem;color:#222}"
    "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3rem .6rem;text-align:left;"
    "vertical-align:top}th{background:#f4f4f4}pre{background:#f7f7f7;padding:.6rem;overflow:auto}"
    "dt{font-weight:600;margin-top:.6rem}"
)


def wants_html(accept: str, query: Any) -> bool:
    """``query``: the request's (anything with ``get``)."""
    if query.get("format") == "json":
        return False
    accept = accept.lower()
    return "text/html" in accept and "json" not in accept


def _value(value: Any, key: str = "", depth: int = 0) -> str:
    """``depth`` 1 is a member of the page's own object, or of a row of its list: where
    the describe data has its ``info`` (HTML that ``doc_html`` rendered and sanitised)
    and its links. Deeper, a member named ``info`` or ``about`` is the author's (a
    default or a header of that name) and is text like everything else."""
    if isinstance(value, str):
        if depth == 1 and key == "info":
            return value  # Markdown rendered by tables.markdown.doc_html, raw HTML and unsafe URLs removed
        if (
            depth == 1
            and value.startswith("/")
            and not value.startswith("//")
            and key in ("about", "routes", "tables", "related")
        ):
            return f'<a href="{escape(value)}">{escape(value)}</a>'
        if "\n" in value:
            return f"<pre>{escape(value)}</pre>"
        return escape(value)
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            keys = list(dict.fromkeys(k for v in value for k in v))
            head = "".join(f"<th>{escape(k)}</th>" for k in keys)
            rows = "".join(
                "<tr>" + "".join(f"<td>{_value(v.get(k, ''), k, depth + 1)}</td>" for k in keys) + "</tr>"
                for v in value
            )
            return f"<table><tr>{head}</tr>{rows}</table>"
        return "<ul>" + "".join(f"<li>{_value(v, key, depth)}</li>" for v in value) + "</ul>"
    if isinstance(value, dict):
        return (
            "<dl>"
            + "".join(f"<dt>{escape(k)}</dt><dd>{_value(v, k, depth + 1)}</dd>" for k, v in value.items())
            + "</dl>"
        )
    return escape(json.dumps(value))


def render(title: str, data: Any) -> str:
    return (
        f"<!doctype html><html><head><meta charset=utf-8><title>{escape(title)}</title>"
        f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>{_value(data)}</body></html>"
    )
