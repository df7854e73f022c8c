-- One pet.
-- GET /pets/{petId} (operation getPet).
-- Auth: the config auth entry 'petshop' (scopes: pets.read).
-- Example: select * from petshop.getPet where petId = "p-1"
-- Columns: ^petId (path)
create table petshop.getPet
  on select get from "{config.tables.petshop.baseUrl}/pets/{^petId}"
     using patch 'petshop.py'
     using auth 'petshop'
