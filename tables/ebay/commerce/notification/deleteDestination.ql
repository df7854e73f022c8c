-- Delete destination
-- DELETE /destination/{destination_id} (operation deleteDestination).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^destination_id (path)
create table ebay.commerce.notification.deleteDestination
  on delete delete "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/destination/{^destination_id}"
     using patch '../../rest.py'
     using auth 'ebay.app'
