-- Search catalog product summaries
-- GET /product_summary/search (operation search); the resultset is the `productSummaries` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/commerce.catalog.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: aspect_filter (query), category_ids (query), fieldgroups (query), gtin (query),
--          limit (query), mpn (query), offset (query), q (query)
create table ebay.commerce.catalog.search
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/catalog/v1_beta/product_summary/search?aspect_filter={aspect_filter}&category_ids={category_ids}&fieldgroups={fieldgroups}&gtin={gtin}&limit={limit}&mpn={mpn}&offset={offset}&q={q}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'productSummaries'
