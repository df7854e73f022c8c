-- Get default category tree ID for marketplace
-- GET /get_default_category_tree_id (operation getDefaultCategoryTreeId).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: select * from ebay.commerce.taxonomy.getDefaultCategoryTreeId where marketplace_id = "EBAY_US"
-- Columns: ^marketplace_id (query)
create table ebay.commerce.taxonomy.getDefaultCategoryTreeId
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/taxonomy/v1/get_default_category_tree_id?marketplace_id={^marketplace_id}"
     using patch '../../rest.py'
     using auth 'ebay.app'
