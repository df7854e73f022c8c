-- Get keywords
-- GET /ad_campaign/{campaign_id}/keyword (operation getKeywords); the resultset is the `keywords` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ad_group_ids (query), ^campaign_id (path), keyword_status (query), limit (query),
--          offset (query)
create table ebay.sell.marketing.getKeywords
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/keyword?ad_group_ids={ad_group_ids}&keyword_status={keyword_status}&limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'keywords'
