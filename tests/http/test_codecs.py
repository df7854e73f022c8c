"""Response text → JSON: media types, charsets, XML shapes, CSV."""

import codecs

import pytest

from qlgate.http.codecs import TransformFailure, decode_text, parse_media_type, transform
from qlgate.http.xml import xml_to_json


def test_media_types():
    assert parse_media_type("text/csv; header; charset=UTF-8") == ("text/csv", {"header": None, "charset": "UTF-8"})
    assert parse_media_type(None) == ("application/json", {})
    assert parse_media_type("text/xml")[0] == "application/xml"


def test_ucs2_without_bom_is_big_endian():
    assert decode_text("héllo".encode("utf-16-be"), "ucs-2") == "héllo"
    assert decode_text(codecs.BOM_UTF16_LE + "hé".encode("utf-16-le"), "UCS-2") == "hé"
    assert decode_text(b"caf\xc3\xa9", None) == "café"


def test_xml_shapes_and_coercion():
    doc = (
        '<?xml version="1.0"?><!-- c --><r xmlns="urn:x" xmlns:p="urn:p"><p:item id="7" code="02134">'
        "<name> No </name><n>-1.5e3</n><b>TRUE</b><![CDATA[<raw>]]></p:item><p:item/><e/></r>"
    )
    assert xml_to_json(doc) == {
        "r": {
            "xmlns": "urn:x",
            "xmlns:p": "urn:p",
            "p:item": [{"id": 7, "code": "02134", "name": "No", "n": -1500.0, "b": True, "$t": "<raw>"}, {}],
            "e": {},
        }
    }


def test_external_entities_are_not_loaded(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    doc = f'<!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]><r>&x;</r>'
    assert "TOPSECRET" not in str(xml_to_json(doc))


def test_transform_by_media_type():
    assert transform("a,b\n1,2\n", "text/csv", {"header": None}) == [{"a": "1", "b": "2"}]
    assert transform('"x,y",z\n', "text/csv", {}) == [["x,y", "z"]]
    assert transform("  ", "application/json", {}) == {}
    assert transform('{"n": 12345678901234567890}', "application/vnd.x+json", {}) == {"n": 12345678901234567890}
    assert transform("<a>1</a>", "text/plain", {}) == {"a": 1}
    with pytest.raises(TransformFailure, match="No transformer available"):
        transform("x", "application/octet-stream", {})
    with pytest.raises(TransformFailure, match="malformed XML"):
        transform("<a>", "application/xml", {})


def test_form_encoded_responses():
    assert transform("a=1&b=x%20y&a=2", "application/x-www-form-urlencoded", {}) == {"a": ["1", "2"], "b": "x y"}
