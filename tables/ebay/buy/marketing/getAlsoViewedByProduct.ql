-- Get also viewed by product
-- GET /merchandised_product/get_also_viewed_products (operation getAlsoViewedByProduct); the resultset is the `merchandisedProducts` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: brand (query), epid (query), gtin (query), mpn (query)
create table ebay.buy.marketing.getAlsoViewedByProduct
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/marketing/v1_beta/merchandised_product/get_also_viewed_products?brand={brand}&epid={epid}&gtin={gtin}&mpn={mpn}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'merchandisedProducts'
