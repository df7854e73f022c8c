-- Get email campaigns
-- GET /email_campaign (operation getEmailCampaigns); the resultset is the `campaigns` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), offset (query), q (query), sort (query)
create table ebay.sell.marketing.getEmailCampaigns
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/email_campaign?limit={limit}&offset={offset}&q={q}&sort={sort}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'campaigns'
