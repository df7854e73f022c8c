-- Publish offer
-- POST /offer/{offerId}/publish (operation publishOffer).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: ids = select offerId from ebay.sell.inventory.getOffers where sku = "QL-CAM-1"; return insert into ebay.sell.inventory.publishOffer (offerId) values ("{ids}");
-- Columns: ^offerId (path)
create table ebay.sell.inventory.publishOffer
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/offer/{^offerId}/publish"
     using patch '../../rest.py'
     using auth 'ebay.user'
