-- Get negative keyword
-- GET /negative_keyword/{negative_keyword_id} (operation getNegativeKeyword).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.marketing.readonly https://api.ebay.com/oauth/api_scope/sell.marketing).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^negative_keyword_id (path)
create table ebay.sell.marketing.getNegativeKeyword
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/marketing/v1/negative_keyword/{^negative_keyword_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
