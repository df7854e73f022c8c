-- Find campaign by ad reference
-- GET /ad_campaign/find_campaign_by_ad_reference (operation findCampaignByAdReference); the resultset is the `campaigns` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: inventory_reference_id (query), inventory_reference_type (query), listing_id (query)
create table ebay.sell.marketing.findCampaignByAdReference
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/find_campaign_by_ad_reference?inventory_reference_id={inventory_reference_id}&inventory_reference_type={inventory_reference_type}&listing_id={listing_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'campaigns'
