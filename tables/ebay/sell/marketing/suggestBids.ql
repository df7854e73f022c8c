-- Suggest bids
-- POST /ad_campaign/{campaign_id}/ad_group/{ad_group_id}/suggest_bids (operation suggestBids); the resultset is the `suggestedBids` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through suggestBids.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^ad_group_id (path), ^campaign_id (path), keywords
create table ebay.sell.marketing.suggestBids
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/ad_group/{^ad_group_id}/suggest_bids"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'suggestBids.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'suggestedBids'
