-- Get listing violations
-- GET /listing_violation (operation getListingViolations); the resultset is the `listingViolations` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), compliance_type (query), offset (query),
--          listing_id (query), limit (query), filter (query)
create table ebay.sell.compliance.getListingViolations
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/compliance/v1/listing_violation?compliance_type={compliance_type}&offset={offset}&listing_id={listing_id}&limit={limit}&filter={filter}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'listingViolations'
