-- Get email report
-- GET /email_campaign/report (operation getEmailReport).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^endDate (query), ^startDate (query)
create table ebay.sell.marketing.getEmailReport
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/email_campaign/report?endDate={^endDate}&startDate={^startDate}"
     using patch '../../rest.py'
     using auth 'ebay.user'
