-- Suggest items
-- GET /ad_campaign/{campaign_id}/suggest_items (operation suggestItems); the resultset is the `suggestedItems` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^campaign_id (path), category_ids (query), limit (query), offset (query)
create table ebay.sell.marketing.suggestItems
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/suggest_items?category_ids={category_ids}&limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'suggestedItems'
