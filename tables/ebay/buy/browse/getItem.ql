-- Get item details by RESTful item ID
-- GET /item/{item_id} (operation getItem).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: ids = select itemId from ebay.buy.browse.search where q = "camera" limit 1; return select title, price, seller from ebay.buy.browse.getItem where item_id = "{ids}";
-- Columns: fieldgroups (query), ^item_id (path), endUserCtx (header X-EBAY-C-ENDUSERCTX),
--          marketplace (header X-EBAY-C-MARKETPLACE-ID), acceptLanguage (header Accept-Language),
--          quantity_for_shipping_estimate (query)
create table ebay.buy.browse.getItem
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/browse/v1/item/{^item_id}?fieldgroups={fieldgroups}&quantity_for_shipping_estimate={quantity_for_shipping_estimate}"
     using headers 'X-EBAY-C-ENDUSERCTX' = '{endUserCtx}',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
