-- Get campaign by name
-- GET /ad_campaign/get_campaign_by_name (operation getCampaignByName).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^campaign_name (query)
create table ebay.sell.marketing.getCampaignByName
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/get_campaign_by_name?campaign_name={^campaign_name}"
     using patch '../../rest.py'
     using auth 'ebay.user'
