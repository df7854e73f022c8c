-- Suppress violation
-- POST /suppress_listing_violation (operation suppressViolation).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through suppressViolation.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: complianceType, listingId
create table ebay.sell.compliance.suppressViolation
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/compliance/v1/suppress_listing_violation"
     using bodyTemplate 'suppressViolation.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
