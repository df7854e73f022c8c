-- Get item aspects for a leaf category
-- GET /category_tree/{category_tree_id}/get_item_aspects_for_category (operation getItemAspectsForCategory); the resultset is the `aspects` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope https://api.ebay.com/oauth/api_scope/metadata.insights).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^category_id (query), ^category_tree_id (path)
create table ebay.commerce.taxonomy.getItemAspectsForCategory
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/taxonomy/v1/category_tree/{^category_tree_id}/get_item_aspects_for_category?category_id={^category_id}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'aspects'
