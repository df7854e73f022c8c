-- Get return policies
-- GET /marketplace/{marketplace_id}/get_return_policies (operation getReturnPolicies); the resultset is the `returnPolicies` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: filter (query), ^marketplace_id (path)
create table ebay.sell.metadata.getReturnPolicies
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/metadata/v1/marketplace/{^marketplace_id}/get_return_policies?filter={filter}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'returnPolicies'
