-- Get audiences
-- GET /email_campaign/audience (operation getAudiences); the resultset is the `audiences` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^emailCampaignType (query), limit (query), offset (query)
create table ebay.sell.marketing.getAudiences
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/email_campaign/audience?emailCampaignType={^emailCampaignType}&limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'audiences'
