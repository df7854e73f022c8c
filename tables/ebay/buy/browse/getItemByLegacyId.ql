-- Get item by legacy (Trading) item ID
-- GET /item/get_item_by_legacy_id (operation getItemByLegacyId).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: fieldgroups (query), ^legacy_item_id (query), legacy_variation_id (query),
--          legacy_variation_sku (query), endUserCtx (header X-EBAY-C-ENDUSERCTX),
--          marketplace (header X-EBAY-C-MARKETPLACE-ID), acceptLanguage (header Accept-Language),
--          quantity_for_shipping_estimate (query)
create table ebay.buy.browse.getItemByLegacyId
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/browse/v1/item/get_item_by_legacy_id?fieldgroups={fieldgroups}&legacy_item_id={^legacy_item_id}&legacy_variation_id={legacy_variation_id}&legacy_variation_sku={legacy_variation_sku}&quantity_for_shipping_estimate={quantity_for_shipping_estimate}"
     using headers 'X-EBAY-C-ENDUSERCTX' = '{endUserCtx}',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
