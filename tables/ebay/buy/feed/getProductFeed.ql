-- Get product feed
-- GET /product (operation getProductFeed); the resultset is the `products` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.product.feed).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), ^range (header Range),
--          ^feed_scope (query), ^category_id (query), date (query)
create table ebay.buy.feed.getProductFeed
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/feed/v1_beta/product?feed_scope={^feed_scope}&category_id={^category_id}&date={date}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Range' = '{^range}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'products'
