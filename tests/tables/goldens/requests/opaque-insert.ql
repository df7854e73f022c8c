-- insert into t values (…) without columns sends the value as the body as it is:
-- JSON for an object, its type sniffed since the table declares none.
-- verb: insert
-- opaque: {"name": "Ann", "items": [1, 2]}
create table shop.raw
  on insert post to "{config.base}/raw"
