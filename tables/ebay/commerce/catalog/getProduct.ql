-- Get product
-- GET /product/{epid} (operation getProduct).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/commerce.catalog.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^epid (path)
create table ebay.commerce.catalog.getProduct
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/catalog/v1_beta/product/{^epid}"
     using patch '../../rest.py'
     using auth 'ebay.user'
