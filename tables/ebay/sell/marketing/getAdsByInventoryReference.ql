-- Get ads by inventory reference
-- GET /ad_campaign/{campaign_id}/get_ads_by_inventory_reference (operation getAdsByInventoryReference); the resultset is the `ads` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^campaign_id (path), ^inventory_reference_id (query),
--          ^inventory_reference_type (query)
create table ebay.sell.marketing.getAdsByInventoryReference
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/get_ads_by_inventory_reference?inventory_reference_id={^inventory_reference_id}&inventory_reference_type={^inventory_reference_type}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'ads'
