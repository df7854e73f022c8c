-- Get report tasks
-- GET /ad_report_task (operation getReportTasks); the resultset is the `reportTasks` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), offset (query), report_task_statuses (query)
create table ebay.sell.marketing.getReportTasks
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_report_task?limit={limit}&offset={offset}&report_task_statuses={report_task_statuses}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'reportTasks'
