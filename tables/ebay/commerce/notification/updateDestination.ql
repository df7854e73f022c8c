-- Update destination
-- PUT /destination/{destination_id} (operation updateDestination).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- Body (application/json) from the columns through updateDestination.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^destination_id (path), name, status, deliveryConfig.endpoint,
--          deliveryConfig.verificationToken
create table ebay.commerce.notification.updateDestination
  on update put to "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/destination/{^destination_id}"
     using bodyTemplate 'updateDestination.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
