-- A body template with foreach: one request per value of that parameter, each
-- body rendered with the one value.
-- verb: insert
-- values: {"items": ["a", "b"], "list": "wish"}
create table shop.bulk
  on insert post to "{config.base}/lists/{list}"
     using bodyTemplate 'files/one-item.json.mu' type 'application/json' foreach 'items'
