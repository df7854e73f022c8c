-- Get merchandised products
-- GET /merchandised_product (operation getMerchandisedProducts); the resultset is the `merchandisedProducts` array.
-- Paging: limit → limit.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: aspect_filter (query), ^category_id (query), limit (query), ^metric_name (query)
create table ebay.buy.marketing.getMerchandisedProducts
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/marketing/v1_beta/merchandised_product?aspect_filter={aspect_filter}&category_id={^category_id}&limit={limit}&metric_name={^metric_name}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'merchandisedProducts'
