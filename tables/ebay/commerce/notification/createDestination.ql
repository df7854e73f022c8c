-- Create destination
-- POST /destination (operation createDestination).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- Body (application/json) from the columns through createDestination.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: name, status, deliveryConfig.endpoint, deliveryConfig.verificationToken
create table ebay.commerce.notification.createDestination
  on insert post to "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/destination"
     using bodyTemplate 'createDestination.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
