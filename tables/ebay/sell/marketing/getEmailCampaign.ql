-- Get email campaign
-- GET /email_campaign/{email_campaign_id} (operation getEmailCampaign).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^email_campaign_id (path)
create table ebay.sell.marketing.getEmailCampaign
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/email_campaign/{^email_campaign_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
