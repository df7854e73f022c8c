-- Search items by keyword, category, filters
-- GET /item_summary/search (operation search); the resultset is the `itemSummaries` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: select itemId, title, price from ebay.buy.browse.search where q = "camera" limit 5
-- Columns: aspect_filter (query), auto_correct (query), category_ids (query), charity_ids (query),
--          compatibility_filter (query), epid (query), fieldgroups (query), filter (query),
--          gtin (query), limit (query), offset (query), q (query), sort (query),
--          endUserCtx (header X-EBAY-C-ENDUSERCTX), marketplace (header X-EBAY-C-MARKETPLACE-ID),
--          acceptLanguage (header Accept-Language)
create table ebay.buy.browse.search
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/browse/v1/item_summary/search?aspect_filter={aspect_filter}&auto_correct={auto_correct}&category_ids={category_ids}&charity_ids={charity_ids}&compatibility_filter={compatibility_filter}&epid={epid}&fieldgroups={fieldgroups}&filter={filter}&gtin={gtin}&limit={limit}&offset={offset}&q={q}&sort={sort}"
     using headers 'X-EBAY-C-ENDUSERCTX' = '{endUserCtx}',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'Accept-Language' = '{acceptLanguage}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'itemSummaries'
