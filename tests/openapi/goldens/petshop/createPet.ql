-- Put a pet on sale.
-- POST /pets (operation createPet).
-- Auth: the config auth entry 'petshop' (scopes: pets.write).
-- Body (application/json) from the columns through createPet.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- Example: insert into petshop.createPet (name, price.value, price.currency) values ("Rex", "12.5", "EUR")
-- Columns: requestId (header X-Request-ID), ^name, age, vaccinated, ^price.value, ^price.currency,
--          tags, owner.name, owner.address.city, owner.address.zip
create table petshop.createPet
  on insert post to "{config.tables.petshop.baseUrl}/pets"
     using headers 'X-Request-ID' = '{requestId}'
     using bodyTemplate 'createPet.j2' type 'application/json'
     using patch 'petshop.py'
     using auth 'petshop'
