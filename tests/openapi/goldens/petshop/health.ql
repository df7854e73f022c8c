-- GET /health (operation health).
-- Example: select * from petshop.health
create table petshop.health
  on select get from "{config.tables.petshop.baseUrl}/health"
     using patch 'petshop.py'
