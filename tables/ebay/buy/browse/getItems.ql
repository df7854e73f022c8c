-- Get up to 20 items in bulk
-- GET /item/ (operation getItems); the resultset is the `items` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.item.bulk).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: item_ids (query), item_group_ids (query), endUserCtx (header X-EBAY-C-ENDUSERCTX),
--          marketplace (header X-EBAY-C-MARKETPLACE-ID), acceptLanguage (header Accept-Language),
--          quantity_for_shipping_estimate (query)
create table ebay.buy.browse.getItems
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/browse/v1/item/?item_ids={item_ids}&item_group_ids={item_group_ids}&quantity_for_shipping_estimate={quantity_for_shipping_estimate}"
     using headers 'X-EBAY-C-ENDUSERCTX' = '{endUserCtx}',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'items'
