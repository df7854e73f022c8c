-- A multi-valued token (n|) joins up to n distinct values per request, sorted:
-- five ids in batches of two make three requests.
-- values: {"ids": ["5", "3", "1", "4", "2"]}
create table shop.items
  on select get from "{config.base}/items?ids={2|ids}"
