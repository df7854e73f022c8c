-- Get listing violations summary
-- GET /listing_violation_summary (operation getListingViolationsSummary); the resultset is the `violationSummaries` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), compliance_type (query)
create table ebay.sell.compliance.getListingViolationsSummary
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/compliance/v1/listing_violation_summary?compliance_type={compliance_type}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'violationSummaries'
