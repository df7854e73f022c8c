-- Get item price markdown promotion
-- GET /item_price_markdown/{promotion_id} (operation getItemPriceMarkdownPromotion).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^promotion_id (path)
create table ebay.sell.marketing.getItemPriceMarkdownPromotion
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/item_price_markdown/{^promotion_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
