-- Map expired categories to replacements
-- GET /category_tree/{category_tree_id}/get_expired_categories (operation getExpiredCategories); the resultset is the `expiredCategories` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^category_tree_id (path)
create table ebay.commerce.taxonomy.getExpiredCategories
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/taxonomy/v1/category_tree/{^category_tree_id}/get_expired_categories"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'expiredCategories'
