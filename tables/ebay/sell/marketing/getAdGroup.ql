-- Get ad group
-- GET /ad_campaign/{campaign_id}/ad_group/{ad_group_id} (operation getAdGroup).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^ad_group_id (path), ^campaign_id (path)
create table ebay.sell.marketing.getAdGroup
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/ad_group/{^ad_group_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
