-- Update fulfillment policy
-- PUT /fulfillment_policy/{fulfillmentPolicyId} (operation updateFulfillmentPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through updateFulfillmentPolicy.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^fulfillmentPolicyId (path), categoryTypes, description, freightShipping,
--          globalShipping, handlingTime.unit, handlingTime.value, localPickup, marketplaceId,
--          name, pickupDropOff, shippingOptions, shipToLocations.regionExcluded,
--          shipToLocations.regionIncluded
create table ebay.sell.account.updateFulfillmentPolicy
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/account/v1/fulfillment_policy/{^fulfillmentPolicyId}"
     using bodyTemplate 'updateFulfillmentPolicy.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
