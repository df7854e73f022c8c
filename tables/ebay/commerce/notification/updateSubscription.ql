-- Update subscription
-- PUT /subscription/{subscription_id} (operation updateSubscription).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope https://api.ebay.com/oauth/api_scope/commerce.notification.subscription).
-- Body (application/json) from the columns through updateSubscription.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^subscription_id (path), status, payload.format, payload.schemaVersion,
--          payload.deliveryProtocol, destinationId
create table ebay.commerce.notification.updateSubscription
  on update put to "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/subscription/{^subscription_id}"
     using bodyTemplate 'updateSubscription.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
