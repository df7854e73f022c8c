-- Get all items of an item group
-- GET /item/get_items_by_item_group (operation getItemsByItemGroup).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: fieldgroups (query), ^item_group_id (query), endUserCtx (header X-EBAY-C-ENDUSERCTX),
--          marketplace (header X-EBAY-C-MARKETPLACE-ID), acceptLanguage (header Accept-Language),
--          quantity_for_shipping_estimate (query)
create table ebay.buy.browse.getItemsByItemGroup
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/browse/v1/item/get_items_by_item_group?fieldgroups={fieldgroups}&item_group_id={^item_group_id}&quantity_for_shipping_estimate={quantity_for_shipping_estimate}"
     using headers 'X-EBAY-C-ENDUSERCTX' = '{endUserCtx}',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
