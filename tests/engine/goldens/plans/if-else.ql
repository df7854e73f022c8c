-- A branch waits for its condition's variables; a name may be assigned once in
-- each arm of the same if/else, never twice in one.
found = select * from items where id = "{id}";
if (found && !blocked) {
    result = "{found}";
    note = "found";
} else {
    result = {"missing": "{id}"};
}
return {"result": "{result}", "note": "{note}"};
