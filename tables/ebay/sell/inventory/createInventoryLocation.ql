-- Create inventory location
-- POST /location/{merchantLocationKey} (operation createInventoryLocation).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through createInventoryLocation.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^merchantLocationKey (path), location.address.addressLine1,
--          location.address.addressLine2, location.address.city, location.address.country,
--          location.address.county, location.address.postalCode, location.address.stateOrProvince,
--          location.geoCoordinates.latitude, location.geoCoordinates.longitude,
--          locationAdditionalInformation, locationInstructions, locationTypes, locationWebUrl,
--          merchantLocationStatus, name, operatingHours, phone, specialHours, timeZoneId,
--          fulfillmentCenterSpecifications.sameDayShippingCutOffTimes.overrides,
--          fulfillmentCenterSpecifications.sameDayShippingCutOffTimes.weeklySchedule
create table ebay.sell.inventory.createInventoryLocation
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/location/{^merchantLocationKey}"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'createInventoryLocation.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
