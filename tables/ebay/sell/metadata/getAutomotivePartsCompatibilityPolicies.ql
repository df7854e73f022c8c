-- Get automotive parts compatibility policies
-- GET /marketplace/{marketplace_id}/get_automotive_parts_compatibility_policies (operation getAutomotivePartsCompatibilityPolicies); the resultset is the `automotivePartsCompatibilityPolicies` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: filter (query), ^marketplace_id (path)
create table ebay.sell.metadata.getAutomotivePartsCompatibilityPolicies
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/metadata/v1/marketplace/{^marketplace_id}/get_automotive_parts_compatibility_policies?filter={filter}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'automotivePartsCompatibilityPolicies'
