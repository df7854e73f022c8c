-- Bulk create ads by listing id
-- POST /ad_campaign/{campaign_id}/bulk_create_ads_by_listing_id (operation bulkCreateAdsByListingId); the resultset is the `responses` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through bulkCreateAdsByListingId.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^campaign_id (path), requests
create table ebay.sell.marketing.bulkCreateAdsByListingId
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/bulk_create_ads_by_listing_id"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'bulkCreateAdsByListingId.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'responses'
