-- Get promotion summary report
-- GET /promotion_summary_report (operation getPromotionSummaryReport).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^marketplace_id (query)
create table ebay.sell.marketing.getPromotionSummaryReport
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/promotion_summary_report?marketplace_id={^marketplace_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
