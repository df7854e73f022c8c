-- Get category subtree below a category
-- GET /category_tree/{category_tree_id}/get_category_subtree (operation getCategorySubtree).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^category_id (query), ^category_tree_id (path)
create table ebay.commerce.taxonomy.getCategorySubtree
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/taxonomy/v1/category_tree/{^category_tree_id}/get_category_subtree?category_id={^category_id}"
     using patch '../../rest.py'
     using auth 'ebay.app'
