-- Keyword search at /items/{id}.
return {"items": "{found.item}", "id": "{id}"} via route '/items/{id}?q={^q}' with optional params
  using defaults q = 'x', n = 10 using method get using headers 'X-A' = '{id}'
