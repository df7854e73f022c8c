-- Get negative keywords
-- GET /negative_keyword (operation getNegativeKeywords); the resultset is the `negativeKeywords` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ad_group_ids (query), campaign_ids (query), limit (query),
--          negative_keyword_status (query), offset (query)
create table ebay.sell.marketing.getNegativeKeywords
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/negative_keyword?ad_group_ids={ad_group_ids}&campaign_ids={campaign_ids}&limit={limit}&negative_keyword_status={negative_keyword_status}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'negativeKeywords'
