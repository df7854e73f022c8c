-- Get bidding
-- GET /bidding/{item_id} (operation getBidding).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.offer.auction).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^item_id (path), marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.buy.offer.getBidding
  on select get from "{config.tables.ebay.rest.hosts.api}/buy/offer/v1_beta/bidding/{^item_id}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.user'
