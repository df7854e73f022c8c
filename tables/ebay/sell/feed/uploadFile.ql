-- Upload file
-- POST /task/{task_id}/upload_file (operation uploadFile).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.marketing https://api.ebay.com/oauth/api_scope/commerce.catalog.readonly https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- Body (multipart/form-data) only an opaque value: insert into … values ("{body}") sends it as it
-- is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^task_id (path)
create table ebay.sell.feed.uploadFile
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/task/{^task_id}/upload_file"
     using patch '../../rest.py'
     using auth 'ebay.user'
