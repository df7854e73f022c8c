-- Each statement waits only for the variables it names, wherever they appear:
-- quoted text, a bare path operand, an in-list, the source of a select.
ids = select itemIds from search where keywords = "{q}";
first = select ids[0] from ids;
item = select * from items where id = first.value and lang in ("en", "{lang}");
return select title from item;
