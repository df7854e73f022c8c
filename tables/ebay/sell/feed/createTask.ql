-- Create task
-- POST /task (operation createTask).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.marketing https://api.ebay.com/oauth/api_scope/commerce.catalog.readonly https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- Body (application/json) from the columns through createTask.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), feedType, schemaVersion
create table ebay.sell.feed.createTask
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/task"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'createTask.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
