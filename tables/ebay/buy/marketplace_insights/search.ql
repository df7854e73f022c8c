-- Search sold items of last 90 days
-- GET /item_sales/search (operation search); the resultset is the `itemSales` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.marketplace.insights).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: aspect_filter (query), category_ids (query), epid (query), fieldgroups (query),
--          filter (query), gtin (query), limit (query), offset (query), q (query), sort (query)
create table ebay.buy.marketplace_insights.search
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/marketplace_insights/v1_beta/item_sales/search?aspect_filter={aspect_filter}&category_ids={category_ids}&epid={epid}&fieldgroups={fieldgroups}&filter={filter}&gtin={gtin}&limit={limit}&offset={offset}&q={q}&sort={sort}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'itemSales'
