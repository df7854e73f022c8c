-- Each alternative of a fallback chain waits for its own inputs only.
primary = select * from items where id = "{id}";
backup = select * from mirror where id = "{id}";
item = select title from primary || select title from backup || {"title": "unknown", "id": "{id}"};
return item;
