-- Check item compatibility with a product
-- POST /item/{item_id}/check_compatibility (operation checkCompatibility).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- Body (application/json) from the columns through checkCompatibility.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^item_id (path), marketplace (header X-EBAY-C-MARKETPLACE-ID),
--          acceptLanguage (header Accept-Language), compatibilityProperties
create table ebay.buy.browse.checkCompatibility
  on insert post to "{config.tables.ebay.rest.hosts.api}/buy/browse/v1/item/{^item_id}/check_compatibility"
     using headers 'Content-Type' = 'application/json',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'checkCompatibility.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
