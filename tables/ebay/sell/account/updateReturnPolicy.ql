-- Update return policy
-- PUT /return_policy/{return_policy_id} (operation updateReturnPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through updateReturnPolicy.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^return_policy_id (path), categoryTypes, description, extendedHolidayReturnsOffered,
--          internationalOverride.returnMethod, internationalOverride.returnPeriod.unit,
--          internationalOverride.returnPeriod.value, internationalOverride.returnsAccepted,
--          internationalOverride.returnShippingCostPayer, marketplaceId, name, refundMethod,
--          restockingFeePercentage, returnInstructions, returnMethod, returnPeriod.unit,
--          returnPeriod.value, returnsAccepted, returnShippingCostPayer
create table ebay.sell.account.updateReturnPolicy
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/account/v1/return_policy/{^return_policy_id}"
     using bodyTemplate 'updateReturnPolicy.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
