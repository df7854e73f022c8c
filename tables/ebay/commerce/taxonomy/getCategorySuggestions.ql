-- Suggest leaf categories for a query
-- GET /category_tree/{category_tree_id}/get_category_suggestions (operation getCategorySuggestions); the resultset is the `categorySuggestions` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: tree = select categoryTreeId from ebay.commerce.taxonomy.getDefaultCategoryTreeId where marketplace_id = "EBAY_US"; return select category.categoryId, category.categoryName from ebay.commerce.taxonomy.getCategorySuggestions where category_tree_id = "{tree}" and q = "camera";
-- Columns: ^category_tree_id (path), ^q (query)
create table ebay.commerce.taxonomy.getCategorySuggestions
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/taxonomy/v1/category_tree/{^category_tree_id}/get_category_suggestions?q={^q}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'categorySuggestions'
