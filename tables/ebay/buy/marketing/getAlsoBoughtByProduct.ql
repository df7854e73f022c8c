-- Get also bought by product
-- GET /merchandised_product/get_also_bought_products (operation getAlsoBoughtByProduct); the resultset is the `merchandisedProducts` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: brand (query), epid (query), gtin (query), mpn (query)
create table ebay.buy.marketing.getAlsoBoughtByProduct
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/marketing/v1_beta/merchandised_product/get_also_bought_products?brand={brand}&epid={epid}&gtin={gtin}&mpn={mpn}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'merchandisedProducts'
