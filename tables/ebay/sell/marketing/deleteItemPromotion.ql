-- Delete item promotion
-- DELETE /item_promotion/{promotion_id} (operation deleteItemPromotion).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^promotion_id (path)
create table ebay.sell.marketing.deleteItemPromotion
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/item_promotion/{^promotion_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
