-- Get topic
-- GET /topic/{topic_id} (operation getTopic).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^topic_id (path)
create table ebay.commerce.notification.getTopic
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/topic/{^topic_id}"
     using patch '../../rest.py'
     using auth 'ebay.app'
