-- Search items by Base64 image
-- POST /item_summary/search_by_image (operation searchByImage); the resultset is the `itemSummaries` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- Body (application/json) from the columns through searchByImage.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: aspect_filter (query), category_ids (query), charity_ids (query), fieldgroups (query),
--          filter (query), limit (query), offset (query), sort (query),
--          endUserCtx (header X-EBAY-C-ENDUSERCTX), marketplace (header X-EBAY-C-MARKETPLACE-ID),
--          acceptLanguage (header Accept-Language), image
create table ebay.buy.browse.searchByImage
  on insert post to "{config.tables.ebay.rest.hosts.api}/buy/browse/v1/item_summary/search_by_image?aspect_filter={aspect_filter}&category_ids={category_ids}&charity_ids={charity_ids}&fieldgroups={fieldgroups}&filter={filter}&limit={limit}&offset={offset}&sort={sort}"
     using headers 'Content-Type' = 'application/json',
                   'X-EBAY-C-ENDUSERCTX' = '{endUserCtx}',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'searchByImage.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'itemSummaries'
