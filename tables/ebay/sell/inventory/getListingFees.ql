-- Get listing fees
-- POST /offer/get_listing_fees (operation getListingFees); the resultset is the `feeSummaries` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory.readonly https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through getListingFees.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: offers
create table ebay.sell.inventory.getListingFees
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/offer/get_listing_fees"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'getListingFees.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'feeSummaries'
