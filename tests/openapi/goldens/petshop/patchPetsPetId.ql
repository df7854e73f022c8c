-- Change some of a pet's fields.
-- PATCH /pets/{petId} (operation patchPetsPetId).
-- Auth: the config auth entry 'petshop' (scopes: pets.write).
-- Body (application/json) from the columns through patchPetsPetId.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- Columns: ^petId (path), status, price.value, price.currency
create table petshop.patchPetsPetId
  on update patch "{config.tables.petshop.baseUrl}/pets/{^petId}"
     using bodyTemplate 'patchPetsPetId.j2' type 'application/json'
     using patch 'petshop.py'
     using auth 'petshop'
