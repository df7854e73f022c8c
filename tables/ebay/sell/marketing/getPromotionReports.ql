-- Get promotion reports
-- GET /promotion_report (operation getPromotionReports); the resultset is the `promotionReports` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), ^marketplace_id (query), offset (query), promotion_status (query),
--          promotion_type (query), q (query)
create table ebay.sell.marketing.getPromotionReports
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/promotion_report?limit={limit}&marketplace_id={^marketplace_id}&offset={offset}&promotion_status={promotion_status}&promotion_type={promotion_type}&q={q}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'promotionReports'
