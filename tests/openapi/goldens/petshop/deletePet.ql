-- DELETE /pets/{petId} (operation deletePet).
-- Auth: the config auth entry 'petshop' (scopes: pets.write).
-- Example: delete from petshop.deletePet where petId = "p-1"
-- Columns: ^petId (path)
create table petshop.deletePet
  on delete delete "{config.tables.petshop.baseUrl}/pets/{^petId}"
     using patch 'petshop.py'
     using auth 'petshop'
