-- Get report
-- GET /ad_report/{report_id} (operation getReport).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^report_id (path)
create table ebay.sell.marketing.getReport
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_report/{^report_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
