-- Get ads
-- GET /ad_campaign/{campaign_id}/ad (operation getAds); the resultset is the `ads` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ad_group_ids (query), ad_status (query), ^campaign_id (path), limit (query),
--          listing_ids (query), offset (query)
create table ebay.sell.marketing.getAds
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/ad?ad_group_ids={ad_group_ids}&ad_status={ad_status}&limit={limit}&listing_ids={listing_ids}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'ads'
