-- Get values of a compatibility property
-- GET /category_tree/{category_tree_id}/get_compatibility_property_values (operation getCompatibilityPropertyValues); the resultset is the `compatibilityPropertyValues` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^category_tree_id (path), ^compatibility_property (query), ^category_id (query),
--          filter (query)
create table ebay.commerce.taxonomy.getCompatibilityPropertyValues
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/taxonomy/v1/category_tree/{^category_tree_id}/get_compatibility_property_values?compatibility_property={^compatibility_property}&category_id={^category_id}&filter={filter}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'compatibilityPropertyValues'
