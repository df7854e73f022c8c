-- Get ad groups
-- GET /ad_campaign/{campaign_id}/ad_group (operation getAdGroups); the resultset is the `adGroups` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ad_group_status (query), ^campaign_id (path), limit (query), offset (query)
create table ebay.sell.marketing.getAdGroups
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/ad_group?ad_group_status={ad_group_status}&limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'adGroups'
