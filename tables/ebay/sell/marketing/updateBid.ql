-- Update bid
-- POST /ad_campaign/{campaign_id}/ad/{ad_id}/update_bid (operation updateBid).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through updateBid.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^ad_id (path), ^campaign_id (path), bidPercentage
create table ebay.sell.marketing.updateBid
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/ad/{^ad_id}/update_bid"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateBid.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
