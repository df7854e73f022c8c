-- Get offer
-- GET /offer/{offerId} (operation getOffer).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory.readonly https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^offerId (path)
create table ebay.sell.inventory.getOffer
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/offer/{^offerId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
