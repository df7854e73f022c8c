-- PUT /pets/{petId} (operation replacePet).
-- Auth: the config auth entry 'petshop' (scopes: pets.write).
-- Body (application/json) from the columns through replacePet.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- Columns: ^petId (path), ^ifMatch (header If-Match), ^name, age, vaccinated, ^price.value,
--          ^price.currency, tags, owner.name, owner.address.city, owner.address.zip
create table petshop.replacePet
  on update put to "{config.tables.petshop.baseUrl}/pets/{^petId}"
     using headers 'If-Match' = '{^ifMatch}'
     using bodyTemplate 'replacePet.j2' type 'application/json'
     using patch 'petshop.py'
     using auth 'petshop'
