-- Update keyword
-- PUT /ad_campaign/{campaign_id}/keyword/{keyword_id} (operation updateKeyword).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through updateKeyword.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^campaign_id (path), ^keyword_id (path), bid.currency, bid.value, keywordStatus
create table ebay.sell.marketing.updateKeyword
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/keyword/{^keyword_id}"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateKeyword.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
