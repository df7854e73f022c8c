-- Get offers
-- GET /offer (operation getOffers); the resultset is the `offers` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory.readonly https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: select offerId, status from ebay.sell.inventory.getOffers where sku = "QL-CAM-1"
-- Columns: format (query), limit (query), marketplace_id (query), offset (query), sku (query)
create table ebay.sell.inventory.getOffers
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/offer?format={format}&limit={limit}&marketplace_id={marketplace_id}&offset={offset}&sku={sku}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'offers'
