-- Get compatibility properties for a category
-- GET /category_tree/{category_tree_id}/get_compatibility_properties (operation getCompatibilityProperties); the resultset is the `compatibilityProperties` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^category_tree_id (path), ^category_id (query)
create table ebay.commerce.taxonomy.getCompatibilityProperties
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/taxonomy/v1/category_tree/{^category_tree_id}/get_compatibility_properties?category_id={^category_id}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'compatibilityProperties'
