-- Get item condition policies
-- GET /marketplace/{marketplace_id}/get_item_condition_policies (operation getItemConditionPolicies); the resultset is the `itemConditionPolicies` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: filter (query), ^marketplace_id (path)
create table ebay.sell.metadata.getItemConditionPolicies
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/metadata/v1/marketplace/{^marketplace_id}/get_item_condition_policies?filter={filter}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'itemConditionPolicies'
