-- List the pets on sale, a page at a time.
-- GET /pets (operation listPets); the resultset is the `pets` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'petshop' (scopes: pets.read).
-- Example: select * from petshop.listPets where status = "available" limit 5
-- Columns: requestId (header X-Request-ID), ^status (query), tags (query), limit (query),
--          offset (query), acceptLanguage (header Accept-Language)
create table petshop.listPets
  on select get from "{config.tables.petshop.baseUrl}/pets?status={^status}&tags={|tags}&limit={limit}&offset={offset}"
     using headers 'X-Request-ID' = '{requestId}',
                   'Accept-Language' = '{acceptLanguage}'
     using patch 'petshop.py'
     using auth 'petshop'
     resultset 'pets'
