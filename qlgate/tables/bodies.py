"""Request body templates (spec §10.5): Mustache, Jinja2, form-urlencoded and ql.io's
EJS (JavaScript, run in the sandbox: ``qlgate/js/ejs.py``).

Values are escaped for the body's media type: XML/HTML escaping for XML, JSON
string escaping for JSON (HTML entities would corrupt a JSON body), none for
anything else. Raw output (``{{{x}}}``, ``|safe``) is never escaped. Jinja2
templates run in Jinja2's sandbox.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import chevron.tokenizer
from markupsafe import escape as xml_escape

from ..errors import QlError
from ..lang.templates import TemplateSyntaxError, parse_template
from ..values import MISSING, is_scalar, to_text, truthy
from .files import CodeDirs, read_text
from .params import ParamView
from .uri_template import format_form


class TemplateError(QlError):
    status = 500


def _json_escape(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def escaper_for(media_type: str) -> Callable[[str], str]:
    subtype = media_type.split(";")[0].strip().lower()
    if subtype.endswith(("json", "javascript")):
        return _json_escape
    if "xml" in subtype or "html" in subtype:
        return lambda s: str(xml_escape(s))
    return lambda s: s


def _text(value: Any) -> str:
    if value is MISSING or value is None:
        return ""
    return to_text(value) if is_scalar(value) else json.dumps(value, ensure_ascii=False)


# ------------------------------------------------------------------ Mustache


@lru_cache(maxsize=512)
def _mustache_tree(source: str) -> tuple:
    """Tokens of chevron's tokenizer folded into a tree of sections, once per text."""
    root: list = []
    stack: list[tuple[str, str, list]] = []
    current = root
    try:
        for kind, key in chevron.tokenizer.tokenize(source):
            if kind in ("section", "inverted section"):
                node: list = []
                current.append((kind, key, node))
                stack.append((kind, key, current))
                current = node
            elif kind == "end":
                _, _, current = stack.pop()
            elif kind in ("literal", "variable", "no escape"):
                current.append((kind, key, None))
    except chevron.tokenizer.ChevronError as e:
        raise TemplateError(f"invalid Mustache template: {e}".strip()) from None
    return tuple(root)


def _lookup(stack: list[Any], key: str) -> Any:
    if key == ".":
        return stack[-1]
    parts = key.split(".")
    for scope in reversed(stack):
        if isinstance(scope, dict) and parts[0] in scope:
            value = scope[parts[0]]
            for part in parts[1:]:
                if isinstance(value, dict) and part in value:
                    value = value[part]
                else:
                    return MISSING
            return value
    return MISSING


def _render_nodes(nodes: tuple | list, stack: list[Any], escape: Callable[[str], str], out: list[str]) -> None:
    for kind, key, children in nodes:
        if kind == "literal":
            out.append(key)
        elif kind == "variable":
            out.append(escape(_text(_lookup(stack, key))))
        elif kind == "no escape":
            out.append(_text(_lookup(stack, key)))
        elif kind == "section":
            value = _lookup(stack, key)
            if isinstance(value, list):
                for item in value:
                    stack.append(item)
                    _render_nodes(children, stack, escape, out)
                    stack.pop()
            elif truthy(value):
                stack.append(value)
                _render_nodes(children, stack, escape, out)
                stack.pop()
        elif kind == "inverted section":
            value = _lookup(stack, key)
            if not truthy(value) or (isinstance(value, list) and not value):
                _render_nodes(children, stack, escape, out)


def render_mustache(source: str, context: dict[str, Any], media_type: str) -> str:
    out: list[str] = []
    _render_nodes(_mustache_tree(source), [context], escaper_for(media_type), out)
    return "".join(out)


# ------------------------------------------------------------------ Jinja2


def _bytecode_cache() -> Any:
    """Jinja's bytecode cache (``jinja_bodies.bytecode_cache``), or None."""
    from .jinja_bodies import bytecode_cache

    return bytecode_cache()


@lru_cache(maxsize=64)
def _jinja_env(search_path: str, media_type_family: str) -> Any:
    """The sandboxed Jinja2 environment of one template folder (``jinja_bodies.py``:
    Jinja2 is imported when a table has a Jinja2 body, not with every table)."""
    from .jinja_bodies import new_environment

    return new_environment(search_path, escaper_for(media_type_family), _text)


def _family(media_type: str) -> str:
    subtype = media_type.split(";")[0].strip().lower()
    if subtype.endswith(("json", "javascript")):
        return "application/json"
    if "xml" in subtype or "html" in subtype:
        return "application/xml"
    return "text/plain"


# ------------------------------------------------------------------ the body template

JINJA_SUFFIXES = (".j2", ".jinja", ".jinja2")


@dataclass(frozen=True)
class BodyTemplate:
    """A compiled body template: its engine, source and declared media type."""

    engine: str  # mustache | jinja | form | ejs
    media_type: str
    source: str  # template text (for describe)
    file: str | None  # file name as written in the table
    path: Path | None  # resolved file rendered (a .j2 sibling for .ejs)
    foreach: str | None
    ejs: Any = field(default=None, compare=False, repr=False)  # the compiled EjsTemplate (engine "ejs")

    @classmethod
    def load(cls, file: str, media_type: str, foreach: str | None, dirs: CodeDirs) -> BodyTemplate:
        path = dirs.find(file, "body template")
        rendered = path
        if media_type.split(";")[0].strip().lower() == "application/x-www-form-urlencoded":
            engine = "form"
        elif ".mu" in path.name:
            engine = "mustache"
        elif path.name.endswith(JINJA_SUFFIXES):
            engine = "jinja"
        elif path.name.endswith(".ejs"):
            # a Jinja2 port beside it is what its deployer wrote for qlgate: it runs; else the EJS itself
            sibling = next((path.with_suffix(s) for s in JINJA_SUFFIXES if path.with_suffix(s).is_file()), None)
            if sibling is None:
                return cls._ejs(file, path, media_type, foreach, dirs)
            engine, rendered = "jinja", sibling
        else:
            engine = "mustache"
        source = read_text(rendered, "body template")
        if engine == "form":
            try:
                parse_template(source.strip())
            except TemplateSyntaxError as e:
                raise TemplateError(f"body template '{file}': {e}", status=400) from None
        elif engine == "mustache":
            _mustache_tree(source)
        else:
            import jinja2

            try:
                _jinja_env(str(rendered.parent), _family(media_type)).get_template(rendered.name)
            except jinja2.TemplateSyntaxError as e:
                raise TemplateError(f"{rendered.name}:{e.lineno}: {e.message}", status=400) from None
        return cls(engine, media_type, source, file, rendered, foreach)

    @classmethod
    def _ejs(cls, file: str, path: Path, media_type: str, foreach: str | None, dirs: CodeDirs) -> BodyTemplate:
        from ..js.ejs import EjsTemplate
        from ..js.modules import display_name

        source = read_text(path, "body template")
        template = EjsTemplate(source, display_name(path, dirs.roots), media_type)
        template.check()
        return cls("ejs", media_type, source, file, path, foreach, template)

    async def render_async(self, view: ParamView, params: dict[str, Any], extra: dict[str, Any]) -> str:
        """The body; an EJS template renders on the sandbox's thread, off the event loop."""
        if self.ejs is None:
            return self.render(view, params, extra)
        from ..js.ejs import ejs_locals
        from ..js.sandbox import call_time_ms

        return await self.ejs.render(ejs_locals(view.flat(), extra, self), call_time_ms())

    def render(self, view: ParamView, params: dict[str, Any], extra: dict[str, Any]) -> str:
        return render_body(self.engine, self.source, self.media_type, view, params, extra, self.path)


def render_body(
    engine: str,
    source: str,
    media_type: str,
    view: ParamView,
    params: dict[str, Any],
    extra: dict[str, Any],
    path: Path | None = None,
) -> str:
    if engine == "form":
        return format_form(parse_template(source.strip()), view)
    if engine == "jinja" and path is not None:
        import jinja2

        template = _jinja_env(str(path.parent), _family(media_type)).get_template(path.name)
        try:
            return template.render(params=params, config=params.get("config", {}), **extra)
        except jinja2.TemplateError as e:
            raise TemplateError(f"body template {path.name}: {e}") from None
    return render_mustache(source, {"params": params, **extra}, media_type)
