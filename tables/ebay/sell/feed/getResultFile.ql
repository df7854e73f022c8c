-- Get result file
-- GET /task/{task_id}/download_result_file (operation getResultFile).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.marketing https://api.ebay.com/oauth/api_scope/commerce.catalog.readonly https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^task_id (path)
create table ebay.sell.feed.getResultFile
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/task/{^task_id}/download_result_file"
     using patch '../../rest.py'
     using auth 'ebay.user'
