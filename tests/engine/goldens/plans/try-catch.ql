-- throw assigns its name; a catch runs when the name it tests was thrown in its
-- try block, and finally always does.
try {
    item = select * from items where id = "{id}";
    if (!item) { throw (notFound) }
} catch (notFound) {
    stub = {"id": "{id}", "status": "missing"};
} finally {
    checked = true;
}
return {"item": "{item}", "stub": "{stub}", "checked": "{checked}"};
