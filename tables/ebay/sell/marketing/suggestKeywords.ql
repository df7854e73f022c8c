-- Suggest keywords
-- POST /ad_campaign/{campaign_id}/ad_group/{ad_group_id}/suggest_keywords (operation suggestKeywords); the resultset is the `suggestedKeywords` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through suggestKeywords.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^ad_group_id (path), ^campaign_id (path), additionalInfo, exclusions, listingIds,
--          matchType
create table ebay.sell.marketing.suggestKeywords
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/ad_campaign/{^campaign_id}/ad_group/{^ad_group_id}/suggest_keywords"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'suggestKeywords.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'suggestedKeywords'
