"""insert, update and delete: against tables (bodies built from templates or
sent opaque) and against variables (copies)."""

from tests.conftest import run

NOTES = {
    "notes.ql": "create table notes on insert post to '{config.base}/notes' "
    "using bodyTemplate 'note.xml.mu' type 'application/xml' "
    "on update put to '{config.base}/notes' using bodyTemplate 'note.json.j2' type 'application/json' "
    "on delete delete '{config.base}/notes/{^id}'",
    "note.xml.mu": "<Note>{{#params}}<Subject>{{subject}}</Subject>{{#Offer}}<Max>{{MaxBid}}</Max>{{/Offer}}"
    "{{/params}}</Note>",
    "note.json.j2": '{"id": "{{ params.id }}", "text": "{{ params.text }}"}',
}


async def test_insert_columns_render_the_body_template(upstream, engine_for):
    upstream.echo("POST", "/notes", content_type="application/xml")
    engine = engine_for(NOTES)
    result = await run(engine, 'insert into notes (subject, Offer.MaxBid) values ("R&D <1>", 12.5)')
    sent = upstream.requests[0]
    assert sent.body == b"<Note><Subject>R&amp;D &lt;1&gt;</Subject><Max>12.5</Max></Note>"
    assert sent.headers["content-type"] == "application/xml"
    assert result == {"Note": {"Subject": "R&D <1>", "Max": 12.5}}


async def test_opaque_insert_sends_the_value_verbatim(upstream, engine_for):
    upstream.echo("POST", "/notes", content_type="application/xml")
    engine = engine_for(NOTES)
    xml = '<?xml version="1.0"?><AddItemRequest><Title>{"raw"}</Title></AddItemRequest>'
    await run(engine, f"insert into notes values ('{xml}')")
    assert upstream.requests[0].body == xml.encode()


async def test_update_with_an_object_and_json_escaping(upstream, engine_for):
    upstream.echo("PUT", "/notes")
    engine = engine_for(NOTES)
    result = await run(engine, 'change = {"id": 7, "text": "say \\"hi\\""}; update notes with "{change}"')
    assert result == {"id": "7", "text": 'say "hi"'}


async def test_delete_from_table_and_variables(upstream, engine_for):
    upstream.reply("DELETE", "/notes/3", json_body={"deleted": 3})
    engine = engine_for(NOTES)
    assert await run(engine, 'delete from notes where id = "3"') == {"deleted": 3}
    assert await run(engine, 'a = [{"k": 1}, {"k": 2}]; b = delete from a where k = 1; return [ "{a}", "{b}" ]') == [
        [{"k": 1}, {"k": 2}],
        [{"k": 2}],
    ]


async def test_insert_into_a_variable_returns_a_copy():
    from qlgate.engine.engine import Engine

    async with Engine() as engine:
        assert await run(
            engine, 'd = {"s": "draft"}; u = insert into d (s, n) values ("sent", 2); return ["{d}", "{u}"]'
        ) == [{"s": "draft"}, {"s": "sent", "n": 2}]
