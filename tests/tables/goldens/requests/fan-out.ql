-- A list value for a plain token forks the URI: one request per value, in order.
-- values: {"id": ["101", "102", "103"], "lang": "en"}
create table shop.item
  on select get from "{config.base}/items/{id}?lang={lang}"
