-- Create subscription
-- POST /subscription (operation createSubscription).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope https://api.ebay.com/oauth/api_scope/commerce.notification.subscription).
-- Body (application/json) from the columns through createSubscription.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: topicId, status, payload.format, payload.schemaVersion, payload.deliveryProtocol,
--          destinationId
create table ebay.commerce.notification.createSubscription
  on insert post to "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/subscription"
     using bodyTemplate 'createSubscription.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
