"""eBay's wire formats for the emulator's answers.

Responses are built as ordered Python structures — dicts in schema order, lists
for repeated elements, ``Amount`` for values with a currency attribute — and
written as eBay writes them: XML, Finding's JSON (every value in an array,
``@attr`` and ``__value__``) or Shopping's JSON (amounts as ``Value``/``CurrencyID``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from lxml import etree

TRADING_NS = "urn:ebay:apis:eBLBaseComponents"
FINDING_NS = "http://www.ebay.com/marketplace/search/v1/services"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


@dataclass
class Amount:
    value: float
    currency: str = "USD"
    attribute: str = "currencyID"


@dataclass
class Attributed:
    """An element with attributes and text (``<productId type="ReferenceID">1</productId>``)."""

    text: Any
    attributes: dict[str, str]


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _xml(name: str, value: Any, out: list[str]) -> None:
    if value is None:
        return
    if isinstance(value, list):
        for v in value:
            _xml(name, v, out)
    elif isinstance(value, dict):
        attrs = "".join(f" {k[1:]}={quoteattr(_text(v))}" for k, v in value.items() if k.startswith("@"))
        out.append(f"<{name}{attrs}>")
        for k, v in value.items():
            if not k.startswith("@"):
                _xml(k, v, out)
        out.append(f"</{name}>")
    elif isinstance(value, Amount):
        out.append(f"<{name} {value.attribute}={quoteattr(value.currency)}>{_text(value.value)}</{name}>")
    elif isinstance(value, Attributed):
        attrs = "".join(f" {k}={quoteattr(str(v))}" for k, v in value.attributes.items())
        out.append(f"<{name}{attrs}>{escape(_text(value.text))}</{name}>")
    else:
        out.append(f"<{name}>{escape(_text(value))}</{name}>")


def to_xml(root: str, namespace: str | None, body: dict[str, Any]) -> str:
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        f"<{root}" + (f' xmlns="{namespace}"' if namespace else "") + ">",
    ]
    for k, v in body.items():
        _xml(k, v, out)
    out.append(f"</{root}>")
    return "".join(out)


def _finding_json_value(value: Any) -> Any:
    if isinstance(value, list):
        return [_finding_json_value(v)[0] for v in value]
    if isinstance(value, dict):
        return [
            {k: _text(v) if k.startswith("@") else _finding_json_value(v) for k, v in value.items() if v is not None}
        ]
    if isinstance(value, Amount):
        return [{"@currencyId": value.currency, "__value__": _text(value.value)}]
    if isinstance(value, Attributed):
        return [{**{f"@{k}": str(v) for k, v in value.attributes.items()}, "__value__": _text(value.text)}]
    return [_text(value)]


def to_finding_json(root: str, body: dict[str, Any]) -> str:
    """Finding's JSON convention: ``{"<op>Response": [{"ack": ["Success"], …}]}``."""
    return json.dumps({root: [{k: _finding_json_value(v) for k, v in body.items() if v is not None}]})


def _shopping_json_value(value: Any) -> Any:
    if isinstance(value, list):
        return [_shopping_json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _shopping_json_value(v) for k, v in value.items() if v is not None}
    if isinstance(value, Amount):
        return {"Value": value.value, "CurrencyID": value.currency}
    if isinstance(value, Attributed):
        return {"Value": value.text, **value.attributes}
    return value


def to_shopping_json(body: dict[str, Any]) -> str:
    return json.dumps({k: _shopping_json_value(v) for k, v in body.items() if v is not None})


# ------------------------------------------------------------------ requests


class BadRequest(ValueError):
    pass


def _element_to_dict(node: etree._Element) -> Any:
    children = [c for c in node if isinstance(c.tag, str)]
    if not children and not node.attrib:
        return (node.text or "").strip()
    out: dict[str, Any] = {}
    for key, value in node.attrib.items():
        out["@" + etree.QName(key).localname] = value
    for child in children:
        name = etree.QName(child).localname
        value = _element_to_dict(child)
        if name in out:
            out[name] = out[name] + [value] if isinstance(out[name], list) else [out[name], value]
        else:
            out[name] = value
    text = (node.text or "").strip()
    if text:
        out["#text"] = text
    return out


def parse_request(body: bytes) -> tuple[str, dict[str, Any]]:
    """A request document → (root local name, members); namespaces dropped."""
    if not body.strip():
        raise BadRequest("empty request body")
    try:
        # white space before the XML declaration is taken as eBay took it: ql.io's EJS request
        # templates open with code blocks whose line breaks come first, and eBay answered them
        root = etree.fromstring(body.lstrip(), _PARSER)
    except etree.XMLSyntaxError as e:
        raise BadRequest(f"XML parse error: {e}") from None
    value = _element_to_dict(root)
    return etree.QName(root).localname, value if isinstance(value, dict) else {}


def get(doc: dict[str, Any], path: str, default: Any = None) -> Any:
    """A dotted path in a parsed request; lists contribute their first element."""
    value: Any = doc
    for part in path.split("."):
        if isinstance(value, list):
            value = value[0] if value else None
        if not isinstance(value, dict) or part not in value:
            return default
        value = value[part]
    if isinstance(value, dict) and "#text" in value:
        return value["#text"]
    return value


def as_list(value: Any) -> list:
    if value is None or value == "":
        return []
    return value if isinstance(value, list) else [value]
