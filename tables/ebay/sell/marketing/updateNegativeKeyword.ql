-- Update negative keyword
-- PUT /negative_keyword/{negative_keyword_id} (operation updateNegativeKeyword).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing).
-- Body (application/json) from the columns through updateNegativeKeyword.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^negative_keyword_id (path), negativeKeywordStatus
create table ebay.sell.marketing.updateNegativeKeyword
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/negative_keyword/{^negative_keyword_id}"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'updateNegativeKeyword.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
