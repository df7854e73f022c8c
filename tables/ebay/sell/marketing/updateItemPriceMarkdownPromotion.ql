-- Update item price markdown promotion
-- PUT /item_price_markdown/{promotion_id} (operation updateItemPriceMarkdownPromotion).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through updateItemPriceMarkdownPromotion.j2 (dotted
-- paths, typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^promotion_id (path), applyFreeShipping, autoSelectFutureInventory,
--          blockPriceIncreaseInItemRevision, description, endDate, marketplaceId, name, priority,
--          promotionImageUrl, promotionStatus, selectedInventoryDiscounts, startDate
create table ebay.sell.marketing.updateItemPriceMarkdownPromotion
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/item_price_markdown/{^promotion_id}"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateItemPriceMarkdownPromotion.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
