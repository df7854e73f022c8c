-- Resume promotion
-- POST /promotion/{promotion_id}/resume (operation resumePromotion).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^promotion_id (path)
create table ebay.sell.marketing.resumePromotion
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/promotion/{^promotion_id}/resume"
     using patch '../../rest.py'
     using auth 'ebay.user'
