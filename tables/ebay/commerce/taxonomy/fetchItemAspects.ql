-- Bulk download aspects of all leaf categories
-- GET /category_tree/{category_tree_id}/fetch_item_aspects (operation fetchItemAspects); the resultset is the `categoryAspects` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope https://api.ebay.com/oauth/api_scope/metadata.insights).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^category_tree_id (path)
create table ebay.commerce.taxonomy.fetchItemAspects
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/taxonomy/v1/category_tree/{^category_tree_id}/fetch_item_aspects"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'categoryAspects'
