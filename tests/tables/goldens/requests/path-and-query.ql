-- A required path token and optional query tokens: values are percent-encoded like
-- encodeURIComponent; a parameter without a value leaves its query value empty.
-- values: {"id": "12/34", "q": "tea & cake", "lang": "fr"}
create table shop.item
  on select get from "{config.base}/items/{^id}?q={q}&lang={lang}&page={page}"
  resultset 'item'
