-- Create item promotion
-- POST /item_promotion (operation createItemPromotion).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through createItemPromotion.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: applyDiscountToSingleItemOnly, budget.currency, budget.value,
--          couponConfiguration.couponCode, couponConfiguration.couponType,
--          couponConfiguration.maxCouponRedemptionPerUser, description, discountRules, endDate,
--          inventoryCriterion.inventoryCriterionType, inventoryCriterion.inventoryItems,
--          inventoryCriterion.listingIds, inventoryCriterion.ruleCriteria.excludeInventoryItems,
--          inventoryCriterion.ruleCriteria.excludeListingIds,
--          inventoryCriterion.ruleCriteria.markupInventoryItems,
--          inventoryCriterion.ruleCriteria.markupListingIds,
--          inventoryCriterion.ruleCriteria.selectionRules, marketplaceId, name, priority,
--          promotionImageUrl, promotionStatus, promotionType, startDate
create table ebay.sell.marketing.createItemPromotion
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/item_promotion"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'createItemPromotion.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
