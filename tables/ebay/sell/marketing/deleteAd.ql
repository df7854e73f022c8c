-- Delete ad
-- DELETE /ad_campaign/{campaign_id}/ad/{ad_id} (operation deleteAd).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^ad_id (path), ^campaign_id (path)
create table ebay.sell.marketing.deleteAd
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/ad/{^ad_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
