-- Create negative keyword
-- POST /negative_keyword (operation createNegativeKeyword).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through createNegativeKeyword.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: adGroupId, campaignId, negativeKeywordMatchType, negativeKeywordText
create table ebay.sell.marketing.createNegativeKeyword
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/negative_keyword"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'createNegativeKeyword.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
