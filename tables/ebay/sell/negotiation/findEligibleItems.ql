-- Find eligible items
-- GET /find_eligible_items (operation findEligibleItems); the resultset is the `eligibleItems` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory.readonly https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), offset (query), marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.sell.negotiation.findEligibleItems
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/negotiation/v1/find_eligible_items?limit={limit}&offset={offset}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'eligibleItems'
