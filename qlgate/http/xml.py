"""XML → JSON with the shapes ql.io's node-xml2json produced (spec §10.7.1).

Qualified names as written, attributes and ``xmlns`` declarations as members,
text under ``$t``, repeated children as arrays, and coercion limited to JSON
numbers and true/false. DTDs, external entities and entity expansion are off.
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?\Z")

_PARSER = etree.XMLParser(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    huge_tree=False,
    remove_comments=True,
    remove_pis=True,
    recover=False,
)


class XmlError(ValueError):
    pass


def coerce(text: str) -> Any:
    if _NUMBER.match(text):
        if "." in text or "e" in text or "E" in text:
            return float(text)
        try:
            return int(text)
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits): keep them all
            return text
    lowered = text.lower()
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    return text


def _qname(node: etree._Element) -> str:
    tag = node.tag
    if tag[0] == "{":
        local = tag.split("}", 1)[1]
        return f"{node.prefix}:{local}" if node.prefix else local
    return tag


def _attr_name(node: etree._Element, key: str) -> str:
    if key[0] != "{":
        return key
    uri, local = key[1:].split("}", 1)
    for prefix, ns in (node.nsmap or {}).items():
        if ns == uri and prefix:
            return f"{prefix}:{local}"
    if uri == "http://www.w3.org/XML/1998/namespace":
        return f"xml:{local}"
    return local


def _convert(node: etree._Element, parent_ns: dict) -> Any:
    out: dict[str, Any] = {}
    nsmap = node.nsmap
    if nsmap is not parent_ns and nsmap != parent_ns:
        for prefix, uri in nsmap.items():
            if parent_ns.get(prefix) != uri:
                out["xmlns:" + prefix if prefix else "xmlns"] = uri
    for key, value in node.attrib.items():
        out[_attr_name(node, key)] = coerce(value)
    texts = [node.text] if node.text else []
    for child in node:
        if child.tail:
            texts.append(child.tail)
        if not isinstance(child.tag, str):  # comment / PI that survived
            continue
        name = _qname(child)
        value = _convert(child, nsmap)
        if name in out:
            existing = out[name]
            # converted elements are never lists, so a list here is a repetition
            if isinstance(existing, list):
                existing.append(value)
            else:
                out[name] = [existing, value]
        else:
            out[name] = value
    text = "".join(texts).strip()
    if text:
        if not out:
            return coerce(text)
        out["$t"] = coerce(text)
    return out


def xml_to_json(text: str | bytes) -> dict[str, Any]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    if isinstance(text, str):
        # the text is already decoded: drop the declaration so lxml does not re-decode
        data = re.sub(rb"^\s*<\?xml[^>]*\?>", b"", data, count=1)
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as e:
        if "Excessive depth" in str(e):  # lxml's bound without huge_tree: elements 256 deep
            raise XmlError("XML nested more than 256 levels deep") from None
        raise XmlError(f"malformed XML: {e}") from None
    if root is None:
        raise XmlError("empty XML document")
    return {_qname(root): _convert(root, {})}
