-- Get report task
-- GET /ad_report_task/{report_task_id} (operation getReportTask).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^report_task_id (path)
create table ebay.sell.marketing.getReportTask
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_report_task/{^report_task_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
