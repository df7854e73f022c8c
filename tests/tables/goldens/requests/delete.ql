-- A delete mapping: the verb's own method, no body; required tokens must be given.
-- verb: delete
-- values: {"id": "55", "reason": "sold out"}
create table shop.item
  on delete delete "{config.base}/items/{^id}?reason={reason}"
