"""A table's or route's comment as HTML, safe to put in a page.

The describe pages and the console show the ``--`` comment above a table or
route rendered as Markdown. That text comes from a table file or from a caller's
ad-hoc script, so it is not trusted markup: this is the one place that turns it
into HTML, and it keeps raw HTML and script URLs out.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any


def doc_html(doc: str) -> str:
    """A table's or route's comment, Markdown → HTML for the describe pages and the
    console. The comment is text from a table file or an ad-hoc script, not trusted
    markup: raw HTML in it is shown as text, and links and images keep their URL only
    when it is http(s), mailto or relative (``javascript:`` and ``data:`` are dropped)."""
    if not doc:
        return ""
    import markdown

    return markdown.markdown(doc, extensions=[_safe_markdown()()])


_SAFE_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f]+")


def safe_url(url: str) -> bool:
    """http(s), mailto or relative. Browsers decode entities and skip whitespace and
    control characters before they read the scheme (``java&#x09;script:``); so does this.
    ``html`` is imported here: its table of entities is milliseconds of every ``qlgate
    run``, which imports this module with the engine and renders no Markdown."""
    import html

    found = _SCHEME.match(_IGNORED_IN_URL.sub("", html.unescape(url)))
    return found is None or found.group(1).lower() in _SAFE_SCHEMES


@lru_cache(maxsize=1)
def _safe_markdown() -> type:
    """The Markdown extension of ``doc_html``, built on first use: markdown is imported
    lazily, as before, to keep it out of start-up."""
    from markdown.extensions import Extension
    from markdown.treeprocessors import Treeprocessor

    class SafeUrls(Treeprocessor):
        def run(self, root: Any) -> None:
            for element in root.iter():
                for attribute in ("href", "src"):
                    value = element.get(attribute)
                    if value is not None and not safe_url(value):
                        del element.attrib[attribute]

    class SafeMarkdown(Extension):
        def extendMarkdown(self, md: Any) -> None:
            md.preprocessors.deregister("html_block")  # raw HTML blocks and inline tags
            md.inlinePatterns.deregister("html")  # become text, escaped on output
            md.treeprocessors.register(SafeUrls(md), "safe_urls", -10)  # after every other

    return SafeMarkdown
