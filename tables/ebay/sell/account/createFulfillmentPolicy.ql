-- Create fulfillment policy
-- POST /fulfillment_policy/ (operation createFulfillmentPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through createFulfillmentPolicy.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: categoryTypes, description, freightShipping, globalShipping, handlingTime.unit,
--          handlingTime.value, localPickup, marketplaceId, name, pickupDropOff, shippingOptions,
--          shipToLocations.regionExcluded, shipToLocations.regionIncluded
create table ebay.sell.account.createFulfillmentPolicy
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/account/v1/fulfillment_policy/"
     using bodyTemplate 'createFulfillmentPolicy.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
