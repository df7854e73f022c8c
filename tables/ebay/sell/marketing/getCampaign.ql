-- Get campaign
-- GET /ad_campaign/{campaign_id} (operation getCampaign).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^campaign_id (path)
create table ebay.sell.marketing.getCampaign
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
