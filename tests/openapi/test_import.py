"""``qlgate import openapi`` on two specs written for these tests — a pet shop in
OpenAPI 3.0 YAML and weather stations in Swagger 2.0 JSON — pinned as golden
files, then run: spec → tables → calls through the engine against a loopback
server built from the same spec (``spec_server.py``), which checks method, path,
query, headers, body and credentials against the contract.

Regenerate the goldens after an intended change, then read the diff::

    QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/openapi/test_import.py
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

from qlgate.cli import main
from qlgate.engine.engine import Engine
from qlgate.errors import QlError
from qlgate.openapi.importer import generate, write
from qlgate.openapi.load import load_spec
from tests.goldens import check_golden

from .spec_server import SpecServer

SPECS = Path(__file__).parent / "specs"
GOLDENS = Path(__file__).parent / "goldens"
COMMAND = "QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/openapi/test_import.py"
CASES = {"petshop": ("petshop.yaml", "petshop"), "weather": ("weather.json", "acme.weather")}


@pytest.mark.parametrize("case", sorted(CASES))
def test_generated_files_match_the_goldens(case: str):
    spec, prefix = CASES[case]
    files = generate(load_spec(SPECS / spec), prefix).files
    folder = GOLDENS / case
    folder.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        check_golden(folder / rel, text, COMMAND)
    assert sorted(p.name for p in folder.iterdir()) == sorted(files)  # no golden left over


def test_output_is_deterministic_and_existing_files_need_force(tmp_path: Path):
    doc = load_spec(SPECS / "petshop.yaml")
    first, second = generate(doc, "petshop"), generate(load_spec(SPECS / "petshop.yaml"), "petshop")
    assert first.files == second.files and first.config == second.config
    assert write(first.files, tmp_path, force=False).written
    again = write(first.files, tmp_path, force=False)
    assert again.written == [] and again.refused == [] and len(again.unchanged) == len(first.files)
    (tmp_path / "listPets.ql").write_text("-- edited\n")
    refused = write(first.files, tmp_path, force=False)
    assert refused.refused == ["listPets.ql"] and refused.written == []
    assert write(first.files, tmp_path, force=True).written == ["listPets.ql"]


def test_the_command_prints_the_config_to_add(tmp_path: Path, capsys):
    out = tmp_path / "weather"
    assert main(["import", "openapi", str(SPECS / "weather.json"), "--name", "acme.weather", "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["config"]["tables"]["acme"]["weather"]["baseUrl"] == "https://weather.example.org/v2"
    assert printed["config"]["auth"]["acme.weather"]["tokenUrl"] == "https://weather.example.org/oauth/token"
    assert "acme.weather.listStations" in printed["tables"]
    (out / "listStations.ql").write_text("-- mine\n")
    assert main(["import", "openapi", str(SPECS / "weather.json"), "--name", "acme.weather", "--out", str(out)]) == 1
    assert "--force" in capsys.readouterr().err


@contextlib.asynccontextmanager
async def imported(tmp_path: Path, spec: str, prefix: str, folder: str, base_path: str, **table_config: str):
    """A spec's tables, the server made from the same spec, and an engine between them
    (the table config's ``baseUrl`` on the server, the auth entry at its token endpoint)."""
    doc = load_spec(SPECS / spec)
    made = generate(doc, prefix)
    write(made.files, tmp_path / "tables" / folder, force=False)
    server = await SpecServer(doc).start()
    tables: dict = {"baseUrl": server.base + base_path, **table_config}
    for part in reversed(prefix.split(".")):
        tables = {part: tables}
    auth = {**made.config["auth"][prefix], "tokenUrl": server.base + "/token", "clientId": "c", "clientSecret": "s"}
    engine = Engine(tables=tmp_path / "tables", config={"tables": tables, "auth": {prefix: auth}})
    try:
        yield engine, server
    finally:
        await engine.close()
        await server.stop()


@pytest.fixture
async def shop(tmp_path: Path):
    """The pet shop's tables, the server made from its spec, and an engine between them."""
    async with imported(tmp_path, "petshop.yaml", "petshop", "petshop", "/api/v2") as pair:
        yield pair


@pytest.fixture
async def weather(tmp_path: Path):
    async with imported(tmp_path, "weather.json", "acme.weather", "weather", "/v2", stationKey="key-1") as pair:
        yield pair


async def test_a_select_sends_query_and_headers_and_pages_with_limit_offset(shop):
    engine, server = shop
    result = await engine.execute(
        'return select id, name from petshop.listPets where status = "available" and tags in ("a", "b") '
        'and acceptLanguage = "de" limit 2 offset 4;'
    )
    assert server.problems == []
    (sent,) = server.requests
    assert sent["method"] == "get" and sent["path"] == "/api/v2/pets"
    assert sent["query"] == {"status": "available", "tags": "a,b", "limit": "2", "offset": "4"}
    assert sent["headers"]["accept-language"] == "de" and "x-request-id" not in sent["headers"]
    assert sent["headers"]["authorization"] == "Bearer tok-1"
    assert result.value == [["s", "s"], ["s", "s"]]  # the `pets` array is the resultset


async def test_a_required_parameter_is_checked_before_sending(shop):
    engine, server = shop
    with pytest.raises(QlError):
        await engine.execute("return select * from petshop.listPets;")
    assert server.requests == []


async def test_an_insert_sends_a_typed_json_body_from_dotted_columns(shop):
    engine, server = shop
    await engine.execute(
        "return insert into petshop.createPet (name, age, vaccinated, price.value, price.currency, tags, "
        'owner.address.city) values ("Rex", "3", "true", "12.5", "EUR", "puppy", "Oslo");'
    )
    assert server.problems == []
    (sent,) = server.requests
    assert sent["method"] == "post" and sent["path"] == "/api/v2/pets"
    assert sent["body"] == {
        "name": "Rex",
        "age": 3,
        "vaccinated": True,
        "price": {"value": 12.5, "currency": "EUR"},
        "tags": ["puppy"],
        "owner": {"address": {"city": "Oslo"}},
    }


async def test_update_patch_and_delete(shop):
    engine, server = shop
    await engine.execute(
        'pet = {"petId": "p-1", "ifMatch": "v7", "name": "Rex", "price": {"value": 9, "currency": "EUR"}};'
        'change = {"petId": "p-1", "status": "sold"};'
        'a = update petshop.replacePet with "{pet}";'
        'b = update petshop.patchPetsPetId with "{change}";'
        'c = delete from petshop.deletePet where petId = "p-1";'
        'return {"a": "{a}", "b": "{b}", "c": "{c}"};'
    )
    assert server.problems == []
    by_method = {r["method"]: r for r in server.requests}
    assert by_method["put"]["headers"]["if-match"] == "v7"
    assert by_method["put"]["body"] == {"name": "Rex", "price": {"value": 9, "currency": "EUR"}}
    assert by_method["patch"]["body"] == {"status": "sold"}
    assert by_method["delete"]["path"] == "/api/v2/pets/p-1"


async def test_an_opaque_value_is_sent_as_it_is(shop):
    engine, server = shop
    await engine.execute(
        'pet = {"name": "Kit", "price": {"value": 1, "currency": "EUR"}};'
        'return insert into petshop.createPet values ("{pet}");'
    )
    assert server.problems == []
    assert server.requests[0]["body"] == {"name": "Kit", "price": {"value": 1, "currency": "EUR"}}


async def test_a_value_of_the_wrong_type_is_a_400_naming_the_column(shop):
    engine, server = shop
    with pytest.raises(QlError) as caught:
        await engine.execute('return insert into petshop.createPet (name, age) values ("Rex", "old");')
    assert caught.value.status == 400 and "age" in caught.value.message
    assert server.requests == []


async def test_swagger2_api_key_page_number_paging_and_required_header(weather):
    engine, server = weather
    result = await engine.execute(
        'return select id from acme.weather.listStations where country = "NO" and units = "metric" limit 10 offset 20;'
    )
    assert server.problems == [] and result.value == ["s", "s"]
    sent = server.requests[-1]
    assert sent["query"] == {"country": "NO", "page": "3", "pageSize": "10"}
    assert sent["headers"]["x-api-key"] == "key-1" and sent["headers"]["x-units"] == "metric"
    with pytest.raises(QlError) as caught:
        await engine.execute(
            "return insert into acme.weather.fileReport (stationId, observedAt, reading.temperature) "
            'values ("st-1", "2024-05-01T12:00:00Z", "21.5");'
        )
    assert caught.value.status == 400 and "units" in caught.value.message


async def test_swagger2_body_parameter_path_level_parameter_and_array_query(weather):
    engine, server = weather
    await engine.execute(
        "return insert into acme.weather.fileReport (stationId, units, observedAt, reading.temperature, "
        'reading.raining, notes) values ("st-1", "metric", "2024-05-01T12:00:00Z", "21.5", false, "windy");'
    )
    await engine.execute(
        'return select * from acme.weather.getStationsStationIdReports where stationId = "st-1" and from = "a" '
        'and fields in ("t", "w");'
    )
    assert server.problems == []
    post, get = server.requests
    assert post["path"] == "/v2/stations/st-1/reports" and post["headers"]["authorization"] == "Bearer tok-1"
    assert post["body"] == {
        "observedAt": "2024-05-01T12:00:00Z",
        "reading": {"temperature": 21.5, "raining": False},
        "notes": ["windy"],
    }
    assert get["query"] == {"from": "a", "fields[]": "t,w"}


def test_a_required_header_is_in_the_example_or_there_is_no_example(tmp_path):
    """The doc's Example line runs as written: a required header column is filled from
    the spec's example, and without one the table has no Example (never one that fails)."""

    def spec(header: dict) -> dict:
        return {
            "openapi": "3.0.0",
            "info": {"title": "Shelf", "version": "1"},
            "servers": [{"url": "https://shelf.test/v1"}],
            "paths": {
                "/books": {
                    "get": {
                        "operationId": "listBooks",
                        "parameters": [{"name": "X-Request-ID", "in": "header", "required": True, **header}],
                        "responses": {"200": {"description": "ok"}},
                    }
                }
            },
        }

    for name, header, expected in (
        ("with", {"schema": {"type": "string"}, "example": "req-1"}, 'where requestId = "req-1"'),
        ("without", {"schema": {"type": "string"}}, None),
    ):
        source = tmp_path / f"{name}.json"
        source.write_text(json.dumps(spec(header)))
        out = tmp_path / name
        assert main(["import", "openapi", str(source), "--name", "shelf", "--out", str(out)]) == 0
        lines = [line for line in (out / "listBooks.ql").read_text().splitlines() if line.startswith("-- Example:")]
        assert [expected in line for line in lines] == ([True] if expected else [])
