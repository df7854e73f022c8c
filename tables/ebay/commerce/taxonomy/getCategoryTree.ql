-- Get full category tree
-- GET /category_tree/{category_tree_id} (operation getCategoryTree).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: tree = select categoryTreeId from ebay.commerce.taxonomy.getDefaultCategoryTreeId where marketplace_id = "EBAY_US"; return select rootCategoryNode.category from ebay.commerce.taxonomy.getCategoryTree where category_tree_id = "{tree}";
-- Columns: ^category_tree_id (path)
create table ebay.commerce.taxonomy.getCategoryTree
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/taxonomy/v1/category_tree/{^category_tree_id}"
     using patch '../../rest.py'
     using auth 'ebay.app'
